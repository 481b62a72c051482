/// The user a connection is logged in as.
public struct AuthenticatedUser: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var isAdmin: Bool
    public var createdAt: Int64
    /// SHA-256 of the session token this connection authenticated with.
    public var sessionHash: [UInt8]
    /// The password is a one-time one (a roster import's): only ChangePassword, WhoAmI, Logout
    /// and Ping are answered until it is changed.
    public var mustChangePassword = false
}

/// How a request changed the connection's identity.
public enum IdentityChange: Sendable, Equatable {
    case unchanged
    case loggedIn(AuthenticatedUser)
    case loggedOut
}
