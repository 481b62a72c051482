import Wire

/// What a handler knows about the request's connection. Not who sent it: a handler is given the
/// caller its route admitted (see `RouteAccess`), never the connection's user, so it cannot
/// check rights itself or forget to.
struct RequestContext: Sendable {
    var requestID: UInt32
    /// The peer's IP address as text (`203.0.113.7`, `2001:db8::1`), for throttles and logs.
    var peerAddress: String
    /// The protocol version of the connection: the request was read, and its reply is written,
    /// in this version's layout.
    var protocolVersion: UInt16
    /// The connection's export under way, which its pictures' audit entries depend on (nil
    /// outside a connection).
    var exports: ExportCoverage?

    init(requestID: UInt32, peerAddress: String = "", protocolVersion: UInt16 = ProtocolConstants.current) {
        self.requestID = requestID
        self.peerAddress = peerAddress
        self.protocolVersion = protocolVersion
    }
}
