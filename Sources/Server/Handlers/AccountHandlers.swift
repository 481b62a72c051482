import Crypto
import Wire

/// The account requests: register, log in (with a password, or from a known device), resume a
/// session, log out, who am I, change one's password, and a device token for later logins.
struct AccountHandlers: Sendable {
    let storage: StorageExecutor
    /// The class code and the registration mode, as a reload left them.
    let settings: LiveSettings
    let attempts: LoginAttempts
    let passwords: PasswordWork
    /// How long a session lasts (`--session-lifetime`).
    let sessionLifetime: Int64
    let logger: Logger
    let clock: WallClock

    func register(_ request: Register, _ context: RequestContext) async throws -> HandlerOutcome {
        if let problem = InputRules.validateUsername(request.username) { throw InputError(problem) }
        if let problem = InputRules.validatePassword(request.password) { throw InputError(problem) }
        let joining = try await classOpened(by: request.classCode, registering: request.username, context)
        // A taken name is refused before the deliberately slow hash; the unique index still
        // decides a race between two registrations of the same name.
        let username = request.username
        try await checkRegistration(of: username, in: joining)
        let taken = ErrorMessage(code: .usernameTaken, message: "the user name \(username) is taken")
        if try await storage.read({ store in try store.user(named: username) }) != nil { throw taken }
        let hash = try await passwords.hash(request.password)
        let token = SecureRandom.token()
        let tokenHash = SHA256.hash(Array(token.utf8))
        let now = clock.now()
        let lifetime = sessionLifetime
        let user: UserRecord
        do {
            user = try await storage.write { store in
                let user = try store.createUser(name: username, passwordHash: hash, isAdmin: false, at: now)
                try store.setMember(userID: user.id, classID: joining.id, role: .student, at: now)
                try store.createSession(userID: user.id, tokenHash: tokenHash, at: now, expiresAt: now + lifetime)
                try store.recordSignIn(userID: user.id, at: now)
                return user
            }
        } catch let error as StoreError where error.kind == .conflict {
            // A roster name whose entry another account claimed (renamed away from it) is taken too.
            throw error.message.contains("roster")
                ? ErrorMessage(code: .usernameTaken, message: "the user name \(username) is taken") : taken
        }
        logger.info("registered user \(user.name) in \(joining.handle) from \(context.peerAddress)")
        let current = CurrentClass(id: joining.id, handle: joining.handle, role: .student)
        return authenticated(user, in: current, token: token, tokenHash: tokenHash, for: context)
    }

    /// JoinClass: the logged-in account joins the class the code opens (as for Register, under the
    /// same budget and the class's registration mode and roster) as a student, and the connection
    /// acts in it from now on. A class the account is in already is only chosen.
    func joinClass(_ request: JoinClass, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        guard !request.code.isEmpty else {
            throw ErrorMessage(code: .badClassCode, message: "give the class code your instructor gave you: snapshare join CODE")
        }
        let joining = try await classOpened(by: request.code, registering: user.name, context)
        let now = clock.now()
        let known = try await storage.read { store in try store.role(userID: user.id, classID: joining.id) }
        if known == nil { try await checkRegistration(of: user.name, in: joining) }
        let (role, unread) = try await storage.write { store -> (ClassRole, Int64) in
            var role = try store.role(userID: user.id, classID: joining.id)
            if role == nil {
                // A roster class: the account's name on it becomes its own, unless it is another's,
                // or it left the roster since it was looked at.
                let entry = try store.claimRosterEntry(named: user.name, classID: joining.id, userID: user.id)
                if entry == nil, (joining.settings.registration ?? settings.registration) == .roster, !user.isAdmin {
                    throw ErrorMessage(
                        code: .forbidden, message: "\(user.name) is not on this class's roster; ask your instructor to add you")
                }
                if let entry, entry.claimedBy != user.id {
                    throw ErrorMessage(
                        code: .forbidden, message: "the roster name \(entry.name) of that class is another account's; ask your instructor")
                }
                try store.setMember(userID: user.id, classID: joining.id, role: .student, at: now)
                role = .student
            }
            return (role ?? .student, try store.unreadCounts(viewerID: user.id, now: now)[joining.id] ?? 0)
        }
        if known == nil { logger.info("\(user.name) joined \(joining.handle) from \(context.peerAddress)") }
        return HandlerOutcome(
            ClassChosen(chosen: ClassInfo(joining, role: role, isCurrent: true, unread: unread)), for: context,
            identity: .classChosen(CurrentClass(joining, role: role)))
    }

    /// The class a registration joins: the one its code opens (a class's own code, or the
    /// server's `--class-code` for the class that takes it), under the class-code budget, one
    /// for every class: the "name" guessed at is a code. Without a code, on a server that asks
    /// none, the class that takes the server's code.
    private func classOpened(by code: String, registering username: String, _ context: RequestContext) async throws -> ClassRecord {
        let serverCode = settings.classCode
        guard !code.isEmpty else {
            guard serverCode == nil else {
                throw ErrorMessage(code: .badClassCode, message: "this server needs a class code to register; ask your instructor")
            }
            guard let record = try await storage.read({ store in try store.classTakingServerCode() }), !record.hasEnded else {
                throw ErrorMessage(code: .badClassCode, message: "registering needs a class code on this server; ask your instructor")
            }
            return record
        }
        let attempt = try await attempts.begin(attempts.classCodes, name: "", context, what: "class code", from: context.peerAddress)
        let record: ClassRecord?
        do {
            record = try await storage.read { store in try store.classOpened(byCode: code, serverCode: serverCode) }
        } catch {
            await attempts.finish(attempts.classCodes, attempt, .abandoned)
            throw error
        }
        guard let record, !record.hasEnded else {
            await attempts.finish(attempts.classCodes, attempt, .failed)
            logger.warning("wrong class code from \(context.peerAddress) (registering \(username))")
            throw ErrorMessage(
                code: .badClassCode,
                message: record == nil
                    ? "wrong class code; ask your instructor" : "that class has ended; ask your instructor for this term's code")
        }
        await attempts.finish(attempts.classCodes, attempt, .succeeded)
        return record
    }

    /// What the class's registration mode (the server's `--registration` unless the class sets
    /// its own) allows: anyone with the class code, only the roster's names, or nobody.
    private func checkRegistration(of username: String, in joining: ClassRecord) async throws {
        switch joining.settings.registration ?? settings.registration {
        case .open: return
        case .closed:
            throw ErrorMessage(code: .forbidden, message: "registration is closed on this server; ask your instructor for an account")
        case .roster:
            guard try await storage.read({ store in try store.rosterEntry(named: username, classID: joining.id) }) != nil else {
                throw ErrorMessage(
                    code: .forbidden,
                    message: "\(username) is not on this class's roster; register with the name your "
                        + "instructor gave you, or ask them to add you")
            }
        }
    }

    static func disabled(_ name: String) -> ErrorMessage {
        ErrorMessage(code: .forbidden, message: "the account \(name) is disabled; ask your instructor")
    }

    func login(_ request: Login, _ context: RequestContext) async throws -> HandlerOutcome {
        try await login(username: request.username, password: request.password, deviceToken: nil, context)
    }

    func loginWithDevice(_ request: LoginWithDevice, _ context: RequestContext) async throws -> HandlerOutcome {
        try await login(username: request.username, password: request.password, deviceToken: request.deviceToken, context)
    }

    /// A login, judged by the device's own budget when `deviceToken` proves that this user
    /// logged in from this device before (OWASP's device cookies: a class behind one address
    /// cannot lock out a student's own laptop), else by the name's and the address's.
    private func login(username: String, password: String, deviceToken: String?, _ context: RequestContext) async throws -> HandlerOutcome {
        let device = try await trustedDevice(deviceToken, username: username)
        let throttle = device == nil ? attempts.logins : attempts.deviceLogins
        // The attempt is counted before the password is checked, so parallel guesses cannot
        // slip past the budget while the KDF runs.
        let attempt = try await attempts.begin(
            throttle, name: username, context, what: "login",
            from: device.map { Self.deviceBudgetName($0) } ?? context.peerAddress)
        let user: UserRecord?
        let valid: Bool
        do {
            user = try await storage.read { store in try store.user(named: username) }
            // Verify against a fixed dummy hash when the user does not exist, so timing does not
            // reveal which names are registered.
            valid = await passwords.verify(password, encoded: user?.passwordHash)
        } catch {
            await attempts.finish(throttle, attempt, .abandoned)
            throw error
        }
        if let user, valid, user.isDisabled {
            await attempts.finish(throttle, attempt, .abandoned)
            logger.info("refused the login of \(user.name), whose account is disabled")
            throw Self.disabled(user.name)
        }
        guard let user, valid else {
            await attempts.finish(throttle, attempt, .failed)
            logger.info(
                "failed login for \(username.lowercased()) from \(context.peerAddress)\(device == nil ? "" : " (a known device)") "
                    + "(\(attempt.recentFailures + 1) for this name in the last \(throttle.policy.window / 60_000) min)")
            throw ErrorMessage(code: .badCredentials, message: "wrong user name or password")
        }
        let token = SecureRandom.token()
        let tokenHash = SHA256.hash(Array(token.utf8))
        let issued = clock.now()
        let lifetime = sessionLifetime
        // A hash made at another cost than today's is made again, now that the password is known.
        let rehashed = passwords.needsRehash(user.passwordHash) ? try? await passwords.hash(password) : nil
        // The attempt ends with the session it earned, in one write (or, if that fails, as abandoned).
        let current: CurrentClass?
        do {
            current = try await storage.write { store in
                try throttle.finish(attempt, .succeeded, now: issued, in: store)
                try store.createSession(userID: user.id, tokenHash: tokenHash, at: issued, expiresAt: issued + lifetime)
                try store.recordSignIn(userID: user.id, at: issued)
                if let rehashed { _ = try store.rehashPassword(userID: user.id, from: user.passwordHash, to: rehashed) }
                if let device { try store.touchDevice(tokenHash: device, at: issued) }
                return try Self.defaultClass(of: user, in: store)
            }
        } catch {
            await attempts.finish(throttle, attempt, .abandoned)
            throw error
        }
        return authenticated(user, in: current, token: token, tokenHash: tokenHash, for: context)
    }

    /// The hash of `token` when it is a device token of `username`; nil otherwise (no token, an
    /// unknown one, or another user's: such a login is an ordinary one). Read on a reader.
    private func trustedDevice(_ token: String?, username: String) async throws -> [UInt8]? {
        guard let token, !token.isEmpty else { return nil }
        let hash = SHA256.hash(Array(token.utf8))
        let owner = try await storage.read { store -> Int64? in
            guard let owner = try store.deviceUser(tokenHash: hash), let user = try store.user(named: username) else { return nil }
            return owner == user.id ? owner : nil
        }
        return owner == nil ? nil : hash
    }

    /// The "address" a device's budget is kept under: a short, stable name for it.
    private static func deviceBudgetName(_ hash: [UInt8]) -> String { "device:" + String(SHA256.hex(hash).prefix(16)) }

    func issueDeviceToken(_ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let token = SecureRandom.token()
        let hash = SHA256.hash(Array(token.utf8))
        let now = clock.now()
        try await storage.write { store in try store.createDevice(userID: user.id, tokenHash: hash, at: now) }
        return HandlerOutcome(DeviceToken(token: token), for: context)
    }

    func resume(_ request: Resume, _ context: RequestContext) async throws -> HandlerOutcome {
        let tokenHash = SHA256.hash(Array(request.token.utf8))
        let now = clock.now()
        let found = try await storage.read { store -> (UserRecord, CurrentClass?)? in
            guard let user = try store.sessionUser(tokenHash: tokenHash, now: now) else { return nil }
            return (user, try Self.defaultClass(of: user, in: store))
        }
        guard let (user, current) = found else {
            throw ErrorMessage(code: .sessionInvalid, message: "session expired or logged out; log in again")
        }
        // The same token comes back, so a client that saves every Authenticated token keeps its session.
        return authenticated(user, in: current, token: request.token, tokenHash: tokenHash, for: context)
    }

    func logout(_ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let tokenHash = user.sessionHash
        try await storage.write { store in try store.deleteSession(tokenHash: tokenHash) }
        return HandlerOutcome(Ok(), for: context, identity: .loggedOut, access: .sessionEnded(tokenHash: tokenHash))
    }

    func changePassword(_ request: ChangePassword, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        if let problem = InputRules.validatePassword(request.newPassword) { throw InputError(problem) }
        // No change at all, and a one-time password kept as one's own (the instructor's file
        // still holds it), are refused before anything is checked: they reveal nothing.
        if request.newPassword == request.oldPassword {
            throw ErrorMessage(
                code: .invalidArgument,
                message: user.mustChangePassword
                    ? Self.keptOneTimePassword
                    : "the new password is the same as your current password; choose a different one")
        }
        // Checking the old password is a login in disguise: the same budgets apply, so a
        // borrowed session cannot be used to guess the password.
        let attempt = try await attempts.begin(
            attempts.logins, name: user.name, context, what: "password change", from: context.peerAddress)
        let userID = user.id
        let valid: Bool
        let stored: UserRecord?
        do {
            stored = try await storage.read { store in try store.user(id: userID) }
            valid = await passwords.verify(request.oldPassword, encoded: stored?.passwordHash)
        } catch {
            await attempts.finish(attempts.logins, attempt, .abandoned)
            throw error
        }
        guard valid else {
            await attempts.finish(attempts.logins, attempt, .failed)
            logger.info("failed password change for \(user.name) from \(context.peerAddress): wrong current password")
            throw ErrorMessage(code: .badCredentials, message: "your current password is wrong")
        }
        // The one-time password this account was once given never comes back either.
        if let oneTime = stored?.oneTimeHash, !oneTime.isEmpty, await passwords.verify(request.newPassword, encoded: oneTime) {
            await attempts.finish(attempts.logins, attempt, .succeeded)
            throw ErrorMessage(code: .invalidArgument, message: Self.keptOneTimePassword)
        }
        let keep = user.sessionHash
        let logins = attempts.logins
        // The attempt ends with the change it allowed, in one write (or, if that fails, as abandoned).
        let ended: Int
        do {
            let hash = try await passwords.hash(request.newPassword)
            let now = clock.now()
            ended = try await storage.write { store in
                try logins.finish(attempt, .succeeded, now: now, in: store)
                try store.setPasswordHash(userID: userID, passwordHash: hash)
                return try store.deleteSessions(userID: userID, keeping: keep)
            }
        } catch {
            await attempts.finish(attempts.logins, attempt, .abandoned)
            throw error
        }
        logger.info("\(user.name) changed their password from \(context.peerAddress); \(ended) other sessions ended")
        var changed = user
        changed.mustChangePassword = false
        return HandlerOutcome(Ok(), for: context, identity: .loggedIn(changed), access: .userSessionsEnded(userID: userID, keeping: keep))
    }

    /// The refusal of a one-time password chosen as the student's own.
    static let keptOneTimePassword =
        "your new password must differ from the one-time password from your instructor "
        + "(their list still holds it); choose one of your own"

    func whoAmI(_ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        return HandlerOutcome(
            Authenticated(token: "", username: user.name, isAdmin: user.isAdmin, createdAt: user.createdAt),
            for: context)
    }

    /// The class a connection of `user` acts in from its login: its default class.
    private static func defaultClass(of user: UserRecord, in store: any SnapshareStore) throws -> CurrentClass? {
        try store.defaultClass(userID: user.id, isSiteAdmin: user.isAdmin)
    }

    private func authenticated(
        _ user: UserRecord, in current: CurrentClass?, token: String, tokenHash: [UInt8], for context: RequestContext
    ) -> HandlerOutcome {
        let identity = AuthenticatedUser(
            id: user.id, name: user.name, isAdmin: user.isAdmin, createdAt: user.createdAt,
            sessionHash: tokenHash, mustChangePassword: user.mustChangePassword, currentClass: current)
        return HandlerOutcome(
            Authenticated(token: token, username: user.name, isAdmin: user.isAdmin, createdAt: user.createdAt),
            for: context, identity: .loggedIn(identity))
    }
}
