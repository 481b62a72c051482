import TLS
import Wire

/// The controls over accounts: disable and enable, rename, delete, a new password, lifting login
/// budgets and the list of a class's accounts, for its staff (on the accounts in their reach:
/// `Member.accountInReach`); the site admin right and an address's budgets, for site admins.
struct AccountAdminHandlers: Sendable {
    let storage: StorageExecutor
    let changes: ChangeVersion
    /// The login budgets an unlock or a password reset lifts.
    let attempts: LoginAttempts
    let passwords: PasswordWork
    let logger: Logger
    let clock: WallClock

    func setDisabled(_ request: AdminSetDisabled, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let username = request.username
        let disabled = request.disabled
        if username.lowercased() == admin.name.lowercased() {
            throw ErrorMessage(code: .invalidArgument, message: "you cannot disable your own account")
        }
        let user = try await storage.write { store -> UserRecord in
            let user = try admin.accountInReach(named: username, doing: disabled ? "disable" : "enable", in: store)
            if disabled && user.isAdmin {
                throw ErrorMessage(
                    code: .invalidArgument,
                    message: "\(user.name) is an admin; take away the admin right first (snapshare admin demote \(user.name))")
            }
            try store.setDisabled(userID: user.id, disabled: disabled)
            return user
        }
        logger.warning("admin \(admin.name) \(disabled ? "disabled" : "enabled") the account of \(user.name)")
        return HandlerOutcome(Ok(), for: context, access: disabled ? .accountClosed(userID: user.id, .disabled) : nil)
    }

    func renameUser(_ request: AdminRenameUser, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        if let problem = InputRules.validateUsername(request.newName) { throw InputError(problem) }
        let username = request.username
        let newName = request.newName
        let user: UserRecord
        do {
            user = try await storage.write { store -> UserRecord in
                let user = try admin.accountInReach(named: username, doing: "rename", in: store)
                try store.renameUser(userID: user.id, to: newName)
                return user
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw ErrorMessage(
                code: .usernameTaken, message: error.message.contains("roster") ? error.message : "the user name \(newName) is taken")
        }
        logger.warning("admin \(admin.name) renamed \(user.name) to \(newName)")
        var outcome = HandlerOutcome(Ok(), for: context, access: .renamed(userID: user.id, name: newName))
        if user.id == admin.id {
            var renamed = admin.user
            renamed.name = newName
            outcome = HandlerOutcome(Ok(), for: context, identity: .loggedIn(renamed), access: .renamed(userID: user.id, name: newName))
        }
        return outcome
    }

    func deleteUser(_ request: AdminDeleteUser, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let username = request.username
        if username.lowercased() == admin.name.lowercased() {
            throw ErrorMessage(code: .invalidArgument, message: "you cannot delete your own account")
        }
        let (user, gone) = try await storage.write { store -> (UserRecord, DeletedUser) in
            let user = try admin.accountInReach(named: username, doing: "delete", in: store)
            if user.isAdmin {
                throw ErrorMessage(
                    code: .invalidArgument,
                    message: "\(user.name) is an admin; take away the admin right first (snapshare admin demote \(user.name))")
            }
            return (user, try store.deleteUser(userID: user.id))
        }
        changes.bump()
        logger.warning(
            "admin \(admin.name) deleted the account of \(user.name) with \(gone.snaps) snaps, \(gone.pins) pins and \(gone.movies) movies"
                + (gone.rosterName.map { "; \($0) is off the roster" } ?? ""))
        return HandlerOutcome(Ok(), for: context, access: .accountClosed(userID: user.id, .deleted))
    }

    func unlock(_ request: AdminUnlock, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let attempts = self.attempts
        let username = request.username
        let now = clock.now()
        let cleared = try await storage.write { store in
            // A name nobody has yet may be unlocked by a site admin only (its budget is the server's).
            if !admin.isSiteAdmin { _ = try admin.classmate(named: username, in: store) }
            return try attempts.unlock(name: username, now: now, in: store)
        }
        logger.warning(
            "admin \(admin.name) unlocked logins for \(request.username.lowercased()) (\(cleared) throttle entries held failures)")
        return HandlerOutcome(Count(count: UInt64(cleared)), for: context)
    }

    /// Lifts the password and class-code budgets of one address (a class behind one address).
    func unlockAddress(_ request: AdminUnlockAddress, _ admin: Admin, _ context: RequestContext) async throws -> HandlerOutcome {
        let address = request.address.trimmingCharacters(in: .whitespaces)
        guard IPAddress.isLiteral(address) else {
            throw InputError(
                "\(address.isEmpty ? "an empty address" : "'\(address)'") is not an IP address (like 203.0.113.7 or 2001:db8::1)")
        }
        let attempts = self.attempts
        let now = clock.now()
        let cleared = try await storage.write { store in try attempts.unlock(address: address, now: now, in: store) }
        logger.warning("admin \(admin.name) unlocked logins and class codes from \(address) (\(cleared) throttle entries held failures)")
        return HandlerOutcome(Count(count: UInt64(cleared)), for: context)
    }

    func setAdmin(_ request: AdminSetAdmin, _ admin: Admin, _ context: RequestContext) async throws -> HandlerOutcome {
        let username = request.username
        if !request.isAdmin && username.lowercased() == admin.name.lowercased() {
            throw ErrorMessage(
                code: .invalidArgument,
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

    func resetPassword(_ request: AdminResetPassword, _ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let username = request.username
        if username.lowercased() == admin.name.lowercased() {
            throw ErrorMessage(code: .invalidArgument, message: "to change your own password, use snapshare passwd")
        }
        if let problem = InputRules.validatePassword(request.newPassword) { throw InputError(problem) }
        let user = try await storage.read { store in try admin.accountInReach(named: username, doing: "reset the password of", in: store) }
        let hash = try await passwords.hash(request.newPassword)
        let attempts = self.attempts
        let now = clock.now()
        let ended = try await storage.write { store in
            // Checked again where it is written: the account's classes may have changed while hashing.
            guard try admin.accountInReach(named: username, doing: "reset the password of", in: store).id == user.id else {
                throw StoreError(.notFound, "no user named \(username)")
            }
            try store.setPasswordHash(userID: user.id, passwordHash: hash)
            _ = try attempts.unlock(name: user.name, now: now, in: store)
            return try store.deleteSessions(userID: user.id, keeping: nil)
        }
        logger.warning("admin \(admin.name) reset the password of \(user.name); \(ended) sessions ended")
        return HandlerOutcome(Ok(), for: context, access: .userSessionsEnded(userID: user.id, keeping: nil))
    }

    /// The members of the class the staff member acts in.
    func listUsers(_ admin: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let now = clock.now()
        let classID = admin.classID
        let users = try await storage.read { store in try store.userSummaries(classID: classID, now: now) }
        return HandlerOutcome(
            Users(
                users: users.map {
                    var info = UserInfo(
                        username: $0.name, isAdmin: $0.isAdmin, createdAt: $0.createdAt,
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
}
