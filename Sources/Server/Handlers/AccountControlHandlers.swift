import Wire

/// An admin's controls over accounts: disable and enable, rename, delete.
extension RequestHandler {
    func adminSetDisabled(_ request: AdminSetDisabled, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let username = request.username, disabled = request.disabled
        if username.lowercased() == admin.name.lowercased() {
            throw ErrorMessage(code: .invalidArgument, message: "you cannot disable your own account")
        }
        let user = try await storage.write { store -> UserRecord in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            if disabled && user.isAdmin {
                throw ErrorMessage(code: .invalidArgument, message: "\(user.name) is an admin; take away the admin right first (snapshare admin demote \(user.name))")
            }
            try store.setDisabled(userID: user.id, disabled: disabled)
            return user
        }
        logger.warning("admin \(admin.name) \(disabled ? "disabled" : "enabled") the account of \(user.name)")
        return HandlerOutcome(Ok(), for: context, access: disabled ? .accountClosed(userID: user.id, .disabled) : nil)
    }

    func adminRenameUser(_ request: AdminRenameUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        if let problem = InputRules.validateUsername(request.newName) { throw InputError(problem) }
        let username = request.username, newName = request.newName
        let user: UserRecord
        do {
            user = try await storage.write { store -> UserRecord in
                guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
                try store.renameUser(userID: user.id, to: newName)
                return user
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw ErrorMessage(code: .usernameTaken, message: error.message.contains("roster") ? error.message : "the user name \(newName) is taken")
        }
        logger.warning("admin \(admin.name) renamed \(user.name) to \(newName)")
        var outcome = HandlerOutcome(Ok(), for: context, access: .renamed(userID: user.id, name: newName))
        if user.id == admin.id {
            var renamed = admin
            renamed.name = newName
            outcome = HandlerOutcome(Ok(), for: context, identity: .loggedIn(renamed), access: .renamed(userID: user.id, name: newName))
        }
        return outcome
    }

    func adminDeleteUser(_ request: AdminDeleteUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let admin = try requireUser(context)
        let username = request.username
        if username.lowercased() == admin.name.lowercased() {
            throw ErrorMessage(code: .invalidArgument, message: "you cannot delete your own account")
        }
        let (user, gone) = try await storage.write { store -> (UserRecord, DeletedUser) in
            guard let user = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            if user.isAdmin {
                throw ErrorMessage(code: .invalidArgument, message: "\(user.name) is an admin; take away the admin right first (snapshare admin demote \(user.name))")
            }
            return (user, try store.deleteUser(userID: user.id))
        }
        changes.bump()
        logger.warning("admin \(admin.name) deleted the account of \(user.name) with \(gone.snaps) snaps, \(gone.pins) pins and \(gone.movies) movies"
                       + (gone.rosterName.map { "; \($0) is off the roster" } ?? ""))
        return HandlerOutcome(Ok(), for: context, access: .accountClosed(userID: user.id, .deleted))
    }
}
