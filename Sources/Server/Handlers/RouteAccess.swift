import Wire

/// Who may send a request of type `Request`, what its handler is given for them (its `Caller`),
/// and for an admin request what the audit log records of it: one declaration per route in
/// `RequestTable`, and the one place the rules of who may do what live. The route decodes the
/// request, admits its sender as a `Caller` or refuses them, and calls the handler with the
/// caller; a handler never sees the connection's user (`RequestContext` has none), so it cannot
/// check rights itself, or forget to. An admin route cannot leave its audit out either: `.admin`
/// takes an `AdminAudit`, and there is no other way to name the admin audience.
///
/// A new audience is a new static member here with its caller type. A class's data is reached
/// through the connection's class (`AuthenticatedUser.currentClass`): a member is admitted as a
/// `Member` (the user, the class, their role there), a route for the class's staff names the
/// least role it needs (`.staff(.ta, audit)`), and the server's own business is for site admins
/// (`.site(audit)`). The admission is given the decoded request too, should a request come to
/// name its class.
struct RouteAccess<Request: WireMessage, Caller: Sendable>: Sendable {
    let audience: RequestRoute.Audience
    /// What the audit log records of the request: declared by every admin route, nil for the others.
    let audit: RequestRoute.Audit?
    /// The sender of the decoded request as the handler's caller, or the refusal.
    private let admitting: @Sendable (AuthenticatedUser?, Request) throws -> Caller
    /// Notes what the request's audit entry is to say, given the caller (nil when refused).
    private let noting: (@Sendable (Request, Caller?, RequestContext, AuditNote) -> Void)?

    /// Decodes the request (malformed is fatal), admits its sender for the audience and notes what
    /// its audit entry is to say (one decode serves the handler and the audit); a refusal is thrown
    /// once it is noted, so a refused admin request is recorded too.
    func admit(_ incoming: IncomingRequest, _ note: AuditNote) throws -> (Request, Caller) {
        let request: Request = try incoming.frame.decode(version: incoming.context.protocolVersion)
        let caller = Result { try admitting(incoming.sender, request) }
        noting?(request, try? caller.get(), incoming.context, note)
        return (request, try caller.get())
    }

    /// A logged-in sender, else `AUTH_REQUIRED`.
    private static func loggedIn(_ sender: AuthenticatedUser?) throws -> AuthenticatedUser {
        guard let sender else { throw ErrorMessage(code: .authRequired, message: "log in first") }
        return sender
    }

    /// `user`, unless their password is a one-time one and the request is not among the few
    /// allowed before it is changed (`PASSWORD_CHANGE_REQUIRED`).
    private static func passwordChosen(_ user: AuthenticatedUser) throws -> AuthenticatedUser {
        if user.mustChangePassword, !RequestRoute.allowedBeforePasswordChange.contains(Request.type) {
            throw ErrorMessage(
                code: .passwordChangeRequired,
                message: "your password is a one-time password from your instructor; "
                    + "choose your own first: snapshare passwd")
        }
        return user
    }
}

extension RouteAccess where Caller == Void {
    /// Any connection past Hello, logged in or not; its handler is given no caller.
    static var anyone: RouteAccess { RouteAccess(audience: .anyone, audit: nil, admitting: { _, _ in }, noting: nil) }
}

extension RouteAccess where Caller == AuthenticatedUser {
    /// A logged-in user (else `AUTH_REQUIRED`), given to the handler.
    static var user: RouteAccess {
        RouteAccess(audience: .user, audit: nil, admitting: { sender, _ in try passwordChosen(try loggedIn(sender)) }, noting: nil)
    }
}

extension RouteAccess where Caller == Member {
    /// A member of the connection's class (else `NOT_FOUND`: a class one is not in is not there
    /// for them), given to the handler as a `Member` with their role there; a site admin acts as
    /// the class's owner.
    static var member: RouteAccess {
        RouteAccess(
            audience: .member, audit: nil, admitting: { sender, _ in try Member.admitting(try passwordChosen(try loggedIn(sender))) },
            noting: nil)
    }

    /// A member of the connection's class with at least `role` there (else `FORBIDDEN` naming the
    /// role needed, or `NOT_FOUND` when not a member), given to the handler, with what the audit
    /// log records of the request.
    static func staff(_ role: ClassRole, _ audit: AdminAudit<Request>) -> RouteAccess {
        RouteAccess(
            audience: .staff(role), audit: audit.kind,
            admitting: { sender, _ in
                let member = try Member.admitting(try loggedIn(sender))
                guard member.role >= role else {
                    throw ErrorMessage(
                        code: .forbidden,
                        message: "this needs the role \(role.rawValue) or above in the class \(member.classHandle); "
                            + "you are \(member.role.withArticle) there")
                }
                _ = try passwordChosen(member.user)
                return member
            },
            noting: { request, member, context, note in
                note.set(Request.type, readsOnly: audit.readsOnly(request)) { outcome in
                    audit.target(request, member?.user, context, outcome)
                }
            })
    }
}

extension RouteAccess where Caller == Admin {
    /// A site admin, the server's operator (else `FORBIDDEN`, or `AUTH_REQUIRED` when not logged
    /// in), given to the handler, with what the audit log records of the request.
    static func site(_ audit: AdminAudit<Request>) -> RouteAccess {
        RouteAccess(
            audience: .site, audit: audit.kind,
            admitting: { sender, _ in
                let user = try loggedIn(sender)
                guard user.isAdmin else {
                    throw ErrorMessage(code: .forbidden, message: "this needs a site admin, who runs the server; ask the server's operator")
                }
                return Admin(try passwordChosen(user))
            },
            noting: { request, admin, context, note in
                note.set(Request.type, readsOnly: audit.readsOnly(request)) { outcome in
                    audit.target(request, admin?.user, context, outcome)
                }
            })
    }
}

/// A site admin, as a site route's handler is given them. Only the site audience's admission
/// makes one, so a handler that takes an `Admin` runs only for site admins, and a user route's
/// handler, given an `AuthenticatedUser`, cannot be mistaken for one.
struct Admin: Sendable {
    /// The admin's account, as their connection is logged in.
    let user: AuthenticatedUser

    fileprivate init(_ user: AuthenticatedUser) { self.user = user }

    var id: Int64 { user.id }
    var name: String { user.name }
}

/// A member of a class acting in it, as a class route's handler is given them: the account, the
/// class, and the role there (a site admin's is owner). Only the member and staff audiences'
/// admissions make one, so a handler that takes a `Member` always acts in the caller's class.
struct Member: Sendable {
    let user: AuthenticatedUser
    let classID: Int64
    let classHandle: String
    let role: ClassRole

    var id: Int64 { user.id }
    var name: String { user.name }
    /// A site admin, who may do anything in any class.
    var isSiteAdmin: Bool { user.isAdmin }
    /// Owners, instructors and TAs: the class's staff.
    var isStaff: Bool { role >= .ta }

    /// The user as a member of their connection's class, else `NOT_FOUND`.
    fileprivate static func admitting(_ user: AuthenticatedUser) throws -> Member {
        guard let current = user.currentClass, let role = user.isAdmin ? .owner : current.role else {
            throw ErrorMessage(
                code: .notFound,
                message: "you are not in a class on this server; ask your instructor for the class code to join")
        }
        return Member(user: user, classID: current.id, classHandle: current.handle, role: role)
    }
}
