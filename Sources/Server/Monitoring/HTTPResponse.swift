/// A complete plain HTTP/1.1 response, sent whole, after which the connection closes.
struct HTTPResponse: Sendable {
    var status: Int
    var reason: String
    var contentType = "text/plain; charset=utf-8"
    var headers: [(String, String)] = []
    var body: String

    /// A short text answer: the reason phrase and `detail` as the body.
    static func text(_ status: Int, _ reason: String, _ detail: String, headers: [(String, String)] = []) -> Self {
        HTTPResponse(status: status, reason: reason, headers: headers, body: detail + "\n")
    }

    /// The bytes on the wire.
    var encoded: [UInt8] {
        let payload = Array(body.utf8)
        var head = "HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(payload.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + payload
    }
}
