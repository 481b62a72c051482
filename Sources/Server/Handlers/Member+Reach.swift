import Wire

/// Whom a member of a class may act on. The class's staff act on its members only (anyone else is
/// `NOT_FOUND`, as if there were no such account); on a member's account itself (rename, disable,
/// delete, a new password) only on someone whose role is below their own and who is in no other
/// class, whose staff did not agree to it. A site admin acts on any account.
extension Member {
    /// The member of this class named `name`, with their role here; `NOT_FOUND` when there is none.
    func classmate(named name: String, in store: any SnapshareStore) throws -> (user: UserRecord, role: ClassRole) {
        guard let user = try store.user(named: name), let role = try store.role(userID: user.id, classID: classID) else {
            throw StoreError(.notFound, "no user named \(name) in the class \(classHandle)")
        }
        return (user, role)
    }

    /// The account named `name`, when this member may act on it (`doing`: "rename", "disable",
    /// "delete", "reset the password of"); `NOT_FOUND` or `FORBIDDEN` otherwise, naming who may.
    func accountInReach(named name: String, doing action: String, in store: any SnapshareStore) throws -> UserRecord {
        if isSiteAdmin {
            guard let user = try store.user(named: name) else { throw StoreError(.notFound, "no user named \(name)") }
            return user
        }
        let (user, theirRole) = try classmate(named: name, in: store)
        guard !user.isAdmin else {
            throw ErrorMessage(
                code: .forbidden, message: "\(user.name) is a site admin; only a site admin may \(action) them")
        }
        guard theirRole < role else {
            throw ErrorMessage(
                code: .forbidden,
                message: "\(user.name) is \(theirRole.withArticle) of \(classHandle); to \(action) them needs a role above theirs "
                    + "(you are \(role.withArticle)) or a site admin")
        }
        guard try store.memberships(userID: user.id).count == 1 else {
            throw ErrorMessage(
                code: .forbidden,
                message: "\(user.name) is in another class too, so to \(action) them needs a site admin; ask the server's operator")
        }
        return user
    }

    /// Refuses to suspend `name`: the class's staff and site admins are not suspended.
    static func checkSuspendable(_ name: String, role: ClassRole, isSiteAdmin: Bool) throws {
        if isSiteAdmin {
            throw ErrorMessage(
                code: .invalidArgument, message: "\(name) is a site admin; take away the right first (snapshare admin demote \(name))")
        }
        guard role < .ta else {
            throw ErrorMessage(
                code: .invalidArgument,
                message: "\(name) is \(role.withArticle) of the class; make them a student first (snapshare admin set-role \(name) student)"
            )
        }
    }
}
