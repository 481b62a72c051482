import Wire

/// The staff's changes to their class's feeds and the snaps in them: create, delete and reset
/// feeds, delete a snap, give a student back their view of a snap.
struct FeedAdminHandlers: Sendable {
    let storage: StorageExecutor
    let changes: ChangeVersion
    let logger: Logger
    let clock: WallClock

    func createFeed(_ request: AdminCreateFeed, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let name = try InputRules.normalizedFeedName(request.name).get()
        let now = clock.now()
        do {
            _ = try await storage.write { store in try store.createFeed(name: name, classID: admin.classID, at: now) }
        } catch let error as StoreError where error.kind == .conflict {
            throw ErrorMessage(code: .alreadyExists, message: "a feed named \(name) already exists")
        }
        changes.bump(inClass: admin.classID)
        logger.info("admin \(admin.name) created feed \(name)")
        return HandlerOutcome(Ok(), for: context)
    }

    func deleteFeed(_ request: AdminDeleteFeed, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let name = try InputRules.normalizedFeedName(request.name).get()
        try await storage.write { store in
            // Looked up first for the message: an unknown name is answered with the closest feed.
            _ = try store.requireFeed(named: name, classID: admin.classID)
            try store.deleteFeed(named: name, classID: admin.classID)
        }
        changes.bump(inClass: admin.classID)
        logger.info("admin \(admin.name) deleted feed \(name)")
        return HandlerOutcome(Ok(), for: context)
    }

    func resetFeeds(_ request: AdminResetFeeds, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        // Exactly one of the two: every feed, or the one named.
        if request.allFeeds && !request.name.isEmpty {
            throw ErrorMessage(code: .invalidArgument, message: "give either all_feeds or a feed name, not both")
        }
        let name = request.allFeeds ? nil : try InputRules.normalizedFeedName(request.name).get()
        let count = try await storage.write { store in try store.resetFeeds(named: name, classID: admin.classID) }
        changes.bump(inClass: admin.classID)
        logger.info("admin \(admin.name) reset \(name ?? "all feeds"): \(count) snaps deleted")
        return HandlerOutcome(Count(count: UInt64(count)), for: context)
    }

    func deleteSnap(_ request: AdminDeleteSnap, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let id = try StoredID.snap(request.snapID)
        try await storage.write { store in try store.deleteSnap(id: id, classID: admin.classID) }
        changes.bump(inClass: admin.classID)
        logger.info("admin \(admin.name) deleted snap \(id)")
        return HandlerOutcome(Ok(), for: context)
    }

    func restoreView(_ request: AdminRestoreView, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let id = try StoredID.snap(request.snapID)
        let username = request.username
        try await storage.write { store in
            // Whoever opened a snap of the class (a site admin too), member or not any more.
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            do {
                try store.restoreView(snapID: id, classID: admin.classID, userID: user.id)
            } catch let error as StoreError where error.kind == .notFound {
                // The store knows the user by number; the admin asked by name.
                throw StoreError(.notFound, "\(user.name) has not opened snap \(id)")
            }
        }
        changes.bump(inClass: admin.classID)
        logger.info("admin \(admin.name) restored \(username)'s view of snap \(id)")
        return HandlerOutcome(Ok(), for: context)
    }
}
