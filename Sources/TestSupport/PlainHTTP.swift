import Foundation
import Posix

/// One plain HTTP/1.1 exchange over a raw socket, for the tests of `--metrics`: what is sent is
/// exactly what the test wrote (a malformed request too), and the whole answer is read until
/// the server closes.
package enum PlainHTTP {
    /// An answer: its status, its headers (names lowercased) and its body.
    package struct Response: Sendable {
        package var status: Int
        package var headers: [String: String]
        package var body: String
    }

    /// `GET path` on 127.0.0.1:`port`.
    /// The value of the Prometheus sample written exactly as `series` (`name{labels}`) in `body`, or nil.
    package static func sample(_ body: String, _ series: String) -> Double? {
        body.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { Double($0.dropFirst(series.count + 1)) }
    }

    package static func get(port: Int, _ path: String, timeout: Double = 10) throws -> Response {
        try exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: snapshare-tests\r\n\r\n", timeout: timeout)
    }

    /// Sends `request` as it is and parses the answer.
    package static func exchange(port: Int, _ request: String, timeout: Double = 10) throws -> Response {
        let fd = try Socket.connect(host: "127.0.0.1", port: port, timeout: timeout)
        defer { Syscall.close(fd) }
        Socket.setTimeouts(fd, seconds: timeout)
        try Syscall.sendAll(fd, Array(request.utf8))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while case .processed(let count) = try Syscall.read(fd, into: &chunk), count > 0 { received += chunk[..<count] }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw ProcessError("no HTTP head in: \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let status = lines.first?.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw ProcessError("no HTTP status line in: \(text)")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Response(status: status, headers: headers, body: String(text[split.upperBound...]))
    }
}
