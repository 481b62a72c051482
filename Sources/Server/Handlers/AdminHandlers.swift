import Shared

extension RequestHandler {
    func adminCreateFeed(_ request: AdminCreateFeed, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireAdmin(context)
        let name = try InputRules.normalizedFeedName(request.name).get()
        let now = clock()
        do {
            _ = try await storage.write { store in try store.createFeed(name: name, at: now) }
        } catch let error as StoreError where error.kind == .conflict {
            throw ErrorMessage(code: .alreadyExists, message: "a feed named \(name) already exists")
        }
        changes.bump()
        logger.info("admin \(admin.name) created feed \(name)")
        return HandlerOutcome(Ok(), requestID: context.requestID)
    }

    func adminDeleteFeed(_ request: AdminDeleteFeed, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireAdmin(context)
        let name = try InputRules.normalizedFeedName(request.name).get()
        try await storage.write { store in
            try store.deleteFeed(named: name)
        }
        changes.bump()
        logger.info("admin \(admin.name) deleted feed \(name)")
        return HandlerOutcome(Ok(), requestID: context.requestID)
    }

    func adminResetFeeds(_ request: AdminResetFeeds, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireAdmin(context)
        let name = request.allFeeds ? nil : try InputRules.normalizedFeedName(request.name).get()
        let count = try await storage.write { store in try store.resetFeeds(named: name) }
        changes.bump()
        logger.info("admin \(admin.name) reset \(name ?? "all feeds"): \(count) snaps deleted")
        return HandlerOutcome(Count(count: UInt64(count)), requestID: context.requestID)
    }

    func adminDeleteSnap(_ request: AdminDeleteSnap, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireAdmin(context)
        let id = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        try await storage.write { store in try store.deleteSnap(id: id) }
        changes.bump()
        logger.info("admin \(admin.name) deleted snap \(id)")
        return HandlerOutcome(Ok(), requestID: context.requestID)
    }

    func adminRestoreView(_ request: AdminRestoreView, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireAdmin(context)
        let id = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        let username = request.username
        try await storage.write { store in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            do {
                try store.restoreView(snapID: id, userID: user.id)
            } catch let error as StoreError where error.kind == .notFound {
                // The store knows the user by number; the admin asked by name.
                throw StoreError(.notFound, "\(user.name) has not opened snap \(id)")
            }
        }
        changes.bump()
        logger.info("admin \(admin.name) restored \(username)'s view of snap \(id)")
        return HandlerOutcome(Ok(), requestID: context.requestID)
    }

    func adminListUsers(_ context: RequestContext) async throws -> HandlerOutcome {
        _ = try requireAdmin(context)
        let users = try await storage.read { store in try store.userSummaries() }
        return HandlerOutcome(Users(users: users.map {
            UserInfo(username: $0.name, isAdmin: $0.isAdmin, createdAt: $0.createdAt,
                     postCount: UInt64(max(0, $0.postCount)), viewCount: UInt64(max(0, $0.viewCount)))
        }), requestID: context.requestID)
    }

    func adminStats(_ context: RequestContext) async throws -> HandlerOutcome {
        _ = try requireAdmin(context)
        let now = clock()
        let stored = try await storage.read { store in try store.statistics(now: now) }
        var entries = stored.map { StatEntry(name: $0.name, value: $0.value) }
        entries.append(StatEntry(name: "connections_open", value: metrics.openConnections))
        entries.append(StatEntry(name: "connections_accepted", value: metrics.acceptedConnections))
        entries.append(StatEntry(name: "requests", value: metrics.requestCount))
        entries.append(StatEntry(name: "socket_send_waits", value: metrics.socketSendWaits))
        // The process's standard error, not this server's: only one writes there.
        entries.append(StatEntry(name: "log_lines_dropped", value: StandardErrorLog.shared.droppedLines))
        entries.append(StatEntry(name: "uptime_seconds", value: (now - metrics.startedAt) / 1000))
        return HandlerOutcome(Stats(entries: entries), requestID: context.requestID)
    }
}
