/// A login remembered for one server: the bearer token and the name it belongs to.
public struct StoredSession: Sendable, Equatable {
    public var token: String
    public var username: String

    public init(token: String, username: String) {
        self.token = token
        self.username = username
    }
}
