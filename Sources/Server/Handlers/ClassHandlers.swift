import Wire

/// An account's classes (protocol version 5): listing them with what is unread in each, choosing
/// the one a connection acts in, and the staff's management of their class's members. Joining a
/// class by its code is `AccountHandlers.joinClass`, beside registering with one.
struct ClassHandlers: Sendable {
    let storage: StorageExecutor
    let logger: Logger
    let clock: WallClock

    /// The account's classes, oldest membership first; a site admin's other classes after them.
    func listClasses(_ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let now = clock.now()
        let current = user.currentClass?.id
        let classes = try await storage.read { store -> [ClassInfo] in
            let unread = try store.unreadCounts(viewerID: user.id, now: now)
            var listed = try store.memberships(userID: user.id).map {
                ClassInfo($0.classRecord, role: $0.role, isCurrent: $0.classRecord.id == current, unread: unread[$0.classRecord.id] ?? 0)
            }
            if user.isAdmin {
                let mine = Set(listed.map(\.handle))
                listed += try store.allClasses().filter { !mine.contains($0.handle) }.map {
                    ClassInfo($0, role: nil, isCurrent: $0.id == current, unread: 0)
                }
            }
            return listed
        }
        return HandlerOutcome(Classes(classes: classes), for: context)
    }

    /// The connection acts in the class `handle` from now on: one of the account's (any, for a
    /// site admin). Any other is `NOT_FOUND`, in the same words whether it exists or not.
    func useClass(_ request: UseClass, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        if let problem = ClassRules.validateHandle(request.handle) { throw InputError(problem) }
        let handle = request.handle
        let now = clock.now()
        let (record, role, unread) = try await storage.read { store -> (ClassRecord, ClassRole?, Int64) in
            guard let record = try store.classRecord(handle: handle) else { throw Self.notYours(handle) }
            let role = try store.role(userID: user.id, classID: record.id)
            guard role != nil || user.isAdmin else { throw Self.notYours(handle) }
            return (record, role, try store.unreadCounts(viewerID: user.id, now: now)[record.id] ?? 0)
        }
        return HandlerOutcome(
            ClassChosen(chosen: ClassInfo(record, role: role, isCurrent: true, unread: unread)), for: context,
            identity: .classChosen(CurrentClass(record, role: role)))
    }

    static func notYours(_ handle: String) -> ErrorMessage {
        ErrorMessage(
            code: .notFound,
            message: "you are not in a class \(handle); see yours with snapshare classes, or join one with its code: snapshare join CODE")
    }

    /// The class's members, staff first.
    func listMembers(_ staff: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let members = try await storage.read { store in try store.members(classID: staff.classID) }
        return HandlerOutcome(
            Members(members: members.map { ClassMemberInfo(username: $0.name, role: ClassRoleName($0.role), joinedAt: $0.joinedAt) }),
            for: context)
    }

    /// Gives an account a role in the class, adding it when it is not in it. Naming an owner, or
    /// changing one's role, needs an owner; any other change a role above the member's own (one
    /// may always step down oneself); the class keeps an owner.
    func setRole(_ request: AdminSetRole, _ staff: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        guard let role = request.role.role else {
            throw ErrorMessage(code: .invalidArgument, message: "the role is one of owner, instructor, ta, student")
        }
        let username = request.username
        let now = clock.now()
        let (target, change) = try await storage.write { store -> (UserRecord, AccessChange) in
            guard let target = try store.user(named: username) else { throw StoreError(.notFound, "no user named \(username)") }
            let current = try store.role(userID: target.id, classID: staff.classID)
            // Students come in with the class code; a site admin may bring anyone in.
            guard current != nil || staff.isSiteAdmin else {
                throw ErrorMessage(
                    code: .notFound,
                    message: "no user named \(username) in the class \(staff.classHandle): they join with its code "
                        + "(snapshare join CODE), then you can give them a role")
            }
            if target.isAdmin && !staff.isSiteAdmin {
                throw ErrorMessage(code: .forbidden, message: "\(target.name) is a site admin; only a site admin may change their role")
            }
            try Self.checkReach(staff, over: target, role: current, doing: "change the role of")
            if role == .owner || current == .owner, staff.role < .owner {
                throw ErrorMessage(
                    code: .forbidden,
                    message: "naming an owner, or changing an owner's role, needs the role owner in the class \(staff.classHandle); "
                        + "you are \(staff.role.withArticle) there")
            }
            if role > staff.role {
                throw ErrorMessage(
                    code: .forbidden,
                    message: "you are \(staff.role.withArticle) of \(staff.classHandle), "
                        + "so you may give a role up to yours, not \(role.rawValue)")
            }
            do {
                try store.setMember(userID: target.id, classID: staff.classID, role: role, at: now)
            } catch let error as StoreError where error.kind == .conflict {
                throw ErrorMessage(code: .invalidArgument, message: error.message)
            }
            return (target, try Self.classesChanged(of: target, in: store))
        }
        logger.warning("\(staff.name) made \(target.name) \(role.withArticle) in \(staff.classHandle)")
        return HandlerOutcome(Ok(), for: context, identity: Self.ownChange(change, of: staff), access: change)
    }

    /// Takes a member out of the class (their account stays, and their snaps in it).
    func removeMember(_ request: AdminRemoveMember, _ staff: Member, _ context: RequestContext) async throws -> HandlerOutcome {
        let username = request.username
        let (target, change) = try await storage.write { store -> (UserRecord, AccessChange) in
            let (target, role) = try staff.classmate(named: username, in: store)
            try Self.checkReach(staff, over: target, role: role, doing: "take out")
            if role == .owner, staff.role < .owner {
                throw ErrorMessage(
                    code: .forbidden, message: "taking out an owner needs the role owner in the class \(staff.classHandle)")
            }
            do {
                try store.removeMember(userID: target.id, classID: staff.classID)
            } catch let error as StoreError where error.kind == .conflict {
                throw ErrorMessage(code: .invalidArgument, message: error.message)
            }
            return (target, try Self.classesChanged(of: target, in: store))
        }
        logger.warning("\(staff.name) took \(target.name) out of \(staff.classHandle)")
        return HandlerOutcome(Ok(), for: context, identity: Self.ownChange(change, of: staff), access: change)
    }

    /// Refuses to act on a member whose role is not below the sender's (oneself, an owner's and a
    /// site admin's actions aside: an owner may change a co-owner's role, the class keeping one).
    private static func checkReach(_ staff: Member, over target: UserRecord, role: ClassRole?, doing action: String) throws {
        guard let role, target.id != staff.id, !staff.isSiteAdmin, staff.role != .owner, role >= staff.role else { return }
        throw ErrorMessage(
            code: .forbidden,
            message: "\(target.name) is \(role.withArticle) of \(staff.classHandle); to \(action) them needs a role above theirs "
                + "(you are \(staff.role.withArticle))")
    }

    /// The target's classes now, for their live connections.
    private static func classesChanged(of target: UserRecord, in store: any SnapshareStore) throws -> AccessChange {
        let classes = try store.memberships(userID: target.id).map { CurrentClass($0.classRecord, role: $0.role) }
        return .classesChanged(
            userID: target.id, classes: classes, fallback: try store.defaultClass(userID: target.id, isSiteAdmin: target.isAdmin))
    }

    /// The sender's own connection, when the change was theirs.
    private static func ownChange(_ change: AccessChange, of staff: Member) -> IdentityChange {
        guard case .classesChanged(let userID, let classes, let fallback) = change, userID == staff.id else { return .unchanged }
        var user = staff.user
        user.classesChanged(classes, fallback: fallback)
        return .classChosen(user.currentClass)
    }
}
