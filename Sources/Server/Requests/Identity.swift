
/// The user a connection is logged in as.
public struct AuthenticatedUser: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var isAdmin: Bool
    public var createdAt: Int64
    /// SHA-256 of the session token this connection authenticated with.
    public var sessionHash: [UInt8]
}

/// How a request changed the connection's identity.
public enum IdentityChange: Sendable, Equatable {
    case unchanged
    case loggedIn(AuthenticatedUser)
    case loggedOut
}
