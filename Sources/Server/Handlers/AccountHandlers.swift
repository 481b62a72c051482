import Shared

extension RequestHandler {
    /// The login throttle's key for wrong class codes; no user name can contain a NUL.
    static let classCodeThrottleKey = "\u{0}class-code"

    func register(_ request: Register, _ requestID: UInt32) async throws -> HandlerOutcome {
        if let problem = InputRules.validateUsername(request.username) { throw InputError(problem) }
        if let problem = InputRules.validatePassword(request.password) { throw InputError(problem) }
        if let code = configuration.classCode {
            guard !request.classCode.isEmpty else {
                throw ErrorMessage(code: .badClassCode, message: "this server needs a class code to register; ask your instructor")
            }
            let now = clock()
            if let wait = throttle.retryAfter(user: Self.classCodeThrottleKey, now: now) {
                throw ErrorMessage(code: .rateLimited, message: "too many wrong class codes; try again in \(wait / 1000 + 1) s")
            }
            guard ConstantTime.equal(Array(request.classCode.utf8), Array(code.utf8)) else {
                throttle.recordFailure(user: Self.classCodeThrottleKey, now: now)
                throw ErrorMessage(code: .badClassCode, message: "wrong class code; ask your instructor")
            }
        }
        // A taken name is refused before the deliberately slow hash; the unique index still
        // decides a race between two registrations of the same name.
        let username = request.username
        let taken = ErrorMessage(code: .usernameTaken, message: "the user name \(username) is taken")
        if try await storage.read({ store in try store.user(named: username) }) != nil { throw taken }
        let hash = try await passwords.hash(request.password)
        let token = SecureRandom.token()
        let tokenHash = SHA256.hash(Array(token.utf8))
        let now = clock()
        let lifetime = configuration.sessionLifetimeMilliseconds
        let user: UserRecord
        do {
            user = try await storage.write { store in
                let user = try store.createUser(name: username, passwordHash: hash, isAdmin: false, at: now)
                try store.createSession(userID: user.id, tokenHash: tokenHash, at: now, expiresAt: now + lifetime)
                return user
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw taken
        }
        logger.info("registered user \(user.name)")
        return authenticated(user, token: token, tokenHash: tokenHash, requestID: requestID)
    }

    func login(_ request: Login, _ requestID: UInt32) async throws -> HandlerOutcome {
        let now = clock()
        if let wait = throttle.retryAfter(user: request.username, now: now) {
            throw ErrorMessage(code: .rateLimited, message: "too many failed logins; try again in \(wait / 1000 + 1) s")
        }
        let username = request.username
        let user = try await storage.read { store in try store.user(named: username) }
        // Verify against a fixed dummy hash when the user does not exist, so timing does not
        // reveal which names are registered.
        let valid = await passwords.verify(request.password, encoded: user?.passwordHash)
        guard let user, valid else {
            throttle.recordFailure(user: username, now: clock())
            throw ErrorMessage(code: .badCredentials, message: "wrong user name or password")
        }
        throttle.recordSuccess(user: username)
        let token = SecureRandom.token()
        let tokenHash = SHA256.hash(Array(token.utf8))
        let issued = clock()
        let lifetime = configuration.sessionLifetimeMilliseconds
        try await storage.write { store in
            try store.createSession(userID: user.id, tokenHash: tokenHash, at: issued, expiresAt: issued + lifetime)
        }
        return authenticated(user, token: token, tokenHash: tokenHash, requestID: requestID)
    }

    func resume(_ request: Resume, _ requestID: UInt32) async throws -> HandlerOutcome {
        let tokenHash = SHA256.hash(Array(request.token.utf8))
        let now = clock()
        guard let user = try await storage.read({ store in try store.sessionUser(tokenHash: tokenHash, now: now) }) else {
            throw ErrorMessage(code: .sessionInvalid, message: "session expired or logged out; log in again")
        }
        return authenticated(user, token: "", tokenHash: tokenHash, requestID: requestID)
    }

    func logout(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let tokenHash = user.sessionHash
        try await storage.write { store in try store.deleteSession(tokenHash: tokenHash) }
        return HandlerOutcome(Ok(), requestID: context.requestID, identity: .loggedOut)
    }

    func whoAmI(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        return HandlerOutcome(Authenticated(token: "", username: user.name, isAdmin: user.isAdmin, createdAt: user.createdAt),
                              requestID: context.requestID)
    }

    private func authenticated(_ user: UserRecord, token: String, tokenHash: [UInt8], requestID: UInt32) -> HandlerOutcome {
        let identity = AuthenticatedUser(id: user.id, name: user.name, isAdmin: user.isAdmin, createdAt: user.createdAt,
                                         sessionHash: tokenHash)
        return HandlerOutcome(Authenticated(token: token, username: user.name, isAdmin: user.isAdmin, createdAt: user.createdAt),
                              requestID: requestID, identity: .loggedIn(identity))
    }
}
