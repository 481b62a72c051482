/// A login remembered for one server: the bearer token, the name it belongs to, and the
/// fingerprint of the certificate the server showed, which recognises the same server under
/// another name (`localhost` and `127.0.0.1`).
package struct StoredSession: Sendable, Equatable {
    var token: String
    var username: String
    /// SHA-256 of the server's leaf certificate (lowercase hex); nil in files of older clients.
    var serverFingerprint: String?

    init(token: String, username: String, serverFingerprint: String? = nil) {
        self.token = token
        self.username = username
        self.serverFingerprint = serverFingerprint
    }
}
