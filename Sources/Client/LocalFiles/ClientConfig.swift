/// The client's defaults from `config.json`: which server to talk to and which CA to trust.
package struct ClientConfig: Sendable, Equatable {
    /// The default server as `host:port`.
    var server: String?
    /// Path of a PEM CA certificate file used to verify the server.
    var caFile: String?

    init(server: String? = nil, caFile: String? = nil) {
        self.server = server
        self.caFile = caFile
    }
}
