import Wire

/// Who may send a request of type `Request`, what its handler is given for them (its `Caller`),
/// and for an admin request what the audit log records of it: one declaration per route in
/// `RequestTable`, and the one place the rules of who may do what live. The route decodes the
/// request, admits its sender as a `Caller` or refuses them, and calls the handler with the
/// caller; a handler never sees the connection's user (`RequestContext` has none), so it cannot
/// check rights itself, or forget to. An admin route cannot leave its audit out either: `.admin`
/// takes an `AdminAudit`, and there is no other way to name the admin audience.
///
/// A new audience is a new static member here with its caller type. A member of a class with a
/// role (issue 34) is admitted as a `Member` (the user, the class, the role): the admission is
/// given the decoded request too, so the class may be the one the request names or the
/// connection's, and the memberships can travel with the connection's user as the admin right
/// does today. Its route says `.member(.ta, audit)` and its handler takes a `Member`; nothing
/// else changes.
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

extension RouteAccess where Caller == Admin {
    /// An admin (else `FORBIDDEN`, or `AUTH_REQUIRED` when not logged in), given to the handler,
    /// with what the audit log records of the request.
    static func admin(_ audit: AdminAudit<Request>) -> RouteAccess {
        RouteAccess(
            audience: .admin, audit: audit.kind,
            admitting: { sender, _ in
                let user = try loggedIn(sender)
                guard user.isAdmin else { throw ErrorMessage(code: .forbidden, message: "this command is for admins") }
                return Admin(try passwordChosen(user))
            },
            noting: { request, admin, context, note in
                note.set(Request.type, readsOnly: audit.readsOnly(request)) { outcome in audit.target(request, admin, context, outcome) }
            })
    }
}

/// An admin, as an admin route's handler is given them. Only the admin audience's admission makes
/// one, so a handler that takes an `Admin` runs only for admins, and a user route's handler, given
/// an `AuthenticatedUser`, cannot be mistaken for one.
struct Admin: Sendable {
    /// The admin's account, as their connection is logged in.
    let user: AuthenticatedUser

    fileprivate init(_ user: AuthenticatedUser) { self.user = user }

    var id: Int64 { user.id }
    var name: String { user.name }
}
