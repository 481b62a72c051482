/// A login remembered for one server: the bearer token, the name it belongs to, and the
/// fingerprint of the certificate the server showed, which recognises the same server under
/// another name (`localhost` and `127.0.0.1`).
public struct StoredSession: Sendable, Equatable {
    public var token: String
    public var username: String
    /// SHA-256 of the server's leaf certificate (lowercase hex); nil in files of older clients.
    public var serverFingerprint: String?

    public init(token: String, username: String, serverFingerprint: String? = nil) {
        self.token = token
        self.username = username
        self.serverFingerprint = serverFingerprint
    }
}
