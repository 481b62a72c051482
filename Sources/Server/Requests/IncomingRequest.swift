import Wire

/// A request as it reaches its route: the frame, who the connection is logged in as, and the
/// context its handler is given. Only the route's admission (`RouteAccess`) and the audit log's
/// actor read `sender`; the handler gets the caller the admission made of it.
struct IncomingRequest: Sendable {
    let frame: Frame
    /// The connection's user, nil before login.
    let sender: AuthenticatedUser?
    let context: RequestContext
}
