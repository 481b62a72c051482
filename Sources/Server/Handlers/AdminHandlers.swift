import TLS
import Wire

extension RequestHandler {
    func adminCreateFeed(_ request: AdminCreateFeed, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let name = try InputRules.normalizedFeedName(request.name).get()
        let now = clock.now()
        do {
            _ = try await storage.write { store in try store.createFeed(name: name, at: now) }
        } catch let error as StoreError where error.kind == .conflict {
            throw ErrorMessage(code: .alreadyExists, message: "a feed named \(name) already exists")
        }
        changes.bump()
        logger.info("admin \(admin.name) created feed \(name)")
        return HandlerOutcome(Ok(), for: context)
    }

    func adminDeleteFeed(_ request: AdminDeleteFeed, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let name = try InputRules.normalizedFeedName(request.name).get()
        try await storage.write { store in
            // Looked up first for the message: an unknown name is answered with the closest feed.
            _ = try store.requireFeed(named: name)
            try store.deleteFeed(named: name)
        }
        changes.bump()
        logger.info("admin \(admin.name) deleted feed \(name)")
        return HandlerOutcome(Ok(), for: context)
    }

    func adminResetFeeds(_ request: AdminResetFeeds, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        // Exactly one of the two: every feed, or the one named.
        if request.allFeeds && !request.name.isEmpty {
            throw ErrorMessage(code: .invalidArgument, message: "give either all_feeds or a feed name, not both")
        }
        let name = request.allFeeds ? nil : try InputRules.normalizedFeedName(request.name).get()
        let count = try await storage.write { store in try store.resetFeeds(named: name) }
        changes.bump()
        logger.info("admin \(admin.name) reset \(name ?? "all feeds"): \(count) snaps deleted")
        return HandlerOutcome(Count(count: UInt64(count)), for: context)
    }

    func adminDeleteSnap(_ request: AdminDeleteSnap, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let id = try Self.storageID(request.snapID, orThrow: Self.noSnap(request.snapID))
        try await storage.write { store in try store.deleteSnap(id: id) }
        changes.bump()
        logger.info("admin \(admin.name) deleted snap \(id)")
        return HandlerOutcome(Ok(), for: context)
    }

    func adminRestoreView(_ request: AdminRestoreView, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
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
        return HandlerOutcome(Ok(), for: context)
    }

    func adminUnlock(_ request: AdminUnlock, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let throttles = [logins, deviceLogins]
        let username = request.username
        let now = clock.now()
        let cleared = try await storage.write { store in
            try throttles.reduce(0) { $0 + (try $1.unlock(name: username, now: now, in: store)) }
        }
        logger.warning("admin \(admin.name) unlocked logins for \(request.username.lowercased()) (\(cleared) throttle entries held failures)")
        return HandlerOutcome(Count(count: UInt64(cleared)), for: context)
    }

    /// Lifts the password and class-code budgets of one address (a class behind one address).
    func adminUnlockAddress(_ request: AdminUnlockAddress, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let address = request.address.trimmingCharacters(in: .whitespaces)
        guard IPAddress.isLiteral(address) else {
            throw InputError("\(address.isEmpty ? "an empty address" : "'\(address)'") is not an IP address (like 203.0.113.7 or 2001:db8::1)")
        }
        let throttles = [logins, classCodes]
        let now = clock.now()
        let cleared = try await storage.write { store in
            try throttles.reduce(0) { $0 + (try $1.unlock(address: address, now: now, in: store)) }
        }
        logger.warning("admin \(admin.name) unlocked logins and class codes from \(address) (\(cleared) throttle entries held failures)")
        return HandlerOutcome(Count(count: UInt64(cleared)), for: context)
    }

    func adminSetAdmin(_ request: AdminSetAdmin, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let username = request.username
        if !request.isAdmin && username.lowercased() == admin.name.lowercased() {
            throw ErrorMessage(code: .invalidArgument,
                               message: "you cannot take away your own admin right; another admin (or snapshare-server admin remove) can")
        }
        let isAdmin = request.isAdmin
        let user = try await storage.write { store -> UserRecord in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            try store.setAdmin(userID: user.id, isAdmin: isAdmin)
            return user
        }
        logger.warning("admin \(admin.name) \(isAdmin ? "made \(user.name) an admin" : "took away \(user.name)'s admin right")")
        return HandlerOutcome(Ok(), for: context, access: .adminRightChanged(userID: user.id, isAdmin: isAdmin))
    }

    func adminResetPassword(_ request: AdminResetPassword, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let username = request.username
        if username.lowercased() == admin.name.lowercased() {
            throw ErrorMessage(code: .invalidArgument, message: "to change your own password, use snapshare passwd")
        }
        if let problem = InputRules.validatePassword(request.newPassword) { throw InputError(problem) }
        guard let user = try await storage.read({ store in try store.user(named: username) }) else {
            throw ErrorMessage(code: .notFound, message: "no user named \(username)")
        }
        let hash = try await passwords.hash(request.newPassword)
        let throttles = [logins, deviceLogins]
        let now = clock.now()
        let ended = try await storage.write { store in
            try store.setPasswordHash(userID: user.id, passwordHash: hash)
            for throttle in throttles { _ = try throttle.unlock(name: user.name, now: now, in: store) }
            return try store.deleteSessions(userID: user.id, keeping: nil)
        }
        logger.warning("admin \(admin.name) reset the password of \(user.name); \(ended) sessions ended")
        return HandlerOutcome(Ok(), for: context, access: .userSessionsEnded(userID: user.id, keeping: nil))
    }

    func adminListUsers(_ context: RequestContext) async throws -> HandlerOutcome {
        _ = try requireUser(context)
        let now = clock.now()
        let users = try await storage.read { store in try store.userSummaries(now: now) }
        return HandlerOutcome(Users(users: users.map {
            var info = UserInfo(username: $0.name, isAdmin: $0.isAdmin, createdAt: $0.createdAt,
                                postCount: UInt64(max(0, $0.postCount)), viewCount: UInt64(max(0, $0.viewCount)))
            info.displayName = $0.displayName
            info.rosterName = $0.rosterName
            info.isDisabled = $0.isDisabled
            info.hasOneTimePassword = $0.mustChangePassword
            info.suspendedUntil = $0.suspendedUntil
            info.lastSignIn = $0.lastSignIn
            return info
        }), for: context)
    }

    func adminStats(_ context: RequestContext) async throws -> HandlerOutcome {
        _ = try requireUser(context)
        let now = clock.now()
        let stored = try await storage.read { store in try store.statistics(now: now) }
        var entries = stored.map { StatEntry(name: $0.name, value: $0.value) }
        entries.append(StatEntry(name: "connections_open", value: metrics.openConnections))
        entries.append(StatEntry(name: "connections_accepted", value: metrics.acceptedConnections))
        entries.append(StatEntry(name: "requests", value: metrics.requestCount))
        entries.append(StatEntry(name: "socket_send_waits", value: metrics.socketSendWaits))
        entries.append(StatEntry(name: "connections_refused", value: metrics.refusedConnections))
        entries.append(StatEntry(name: "connections_shed", value: metrics.shedConnections))
        entries.append(StatEntry(name: "uptime_seconds", value: (now - metrics.startedAt) / 1000))
        // Appended after uptime_seconds, which the protocol listed first: new entries only ever
        // go at the end. The process's standard error, not this server's: only one writes there.
        entries.append(StatEntry(name: "log_lines_dropped", value: StandardErrorLog.shared.droppedLines))
        return HandlerOutcome(Stats(entries: entries), for: context)
    }
}
