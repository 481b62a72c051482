import Foundation
import Posix
import Testing

@Suite("Sockets")
struct SocketTests {
    /// A connected loopback pair: the client's end (blocking, as `Socket.connect` leaves it) and
    /// the server's (non-blocking, as `Socket.accept` makes it).
    static func connectedPair() throws -> (client: Int32, server: Int32) {
        let listener = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { Syscall.close(listener) }
        let client = try Socket.connect(host: "127.0.0.1", port: Socket.localPort(listener), timeout: 5)
        // The connection waits in the listener's queue once the listener is readable.
        if try Syscall.waitUntilReadable(listener, timeoutMilliseconds: 5_000), case .processed(let server) = try Socket.accept(listener) {
            return (client, server)
        }
        Syscall.close(client)
        throw SystemError("accept", errno: ETIMEDOUT)
    }

    @Test("a non-blocking socket reports an empty read as would-block instead of waiting")
    func nonBlockingReadsDoNotWait() throws {
        let (client, server) = try Self.connectedPair()
        defer {
            Syscall.close(client)
            Syscall.close(server)
        }
        try Socket.setNonBlocking(client)
        var buffer = [UInt8](repeating: 0, count: 16)
        guard case .wouldBlock = try Syscall.read(client, into: &buffer) else {
            Issue.record("an empty non-blocking socket should report would-block")
            return
        }
    }

    @Test("after a half-close the peer reads what was sent and then end of file, and can still answer")
    func halfCloseEndsOneDirectionOnly() throws {
        let (client, server) = try Self.connectedPair()
        defer {
            Syscall.close(client)
            Syscall.close(server)
        }
        try Syscall.writeAll(server, Array("last words".utf8))
        Socket.halfClose(server)

        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        reading: while true {
            switch try Syscall.read(client, into: &buffer) {
            case .processed(0): break reading
            case .processed(let count): received += buffer[0..<count]
            case .wouldBlock:
                Issue.record("a blocking socket never reports would-block")
                break reading
            }
        }
        #expect(received == Array("last words".utf8))

        try Syscall.writeAll(client, Array("heard".utf8))
        var answer: [UInt8] = []
        while answer.count < 5, try Syscall.waitUntilReadable(server, timeoutMilliseconds: 5_000) {
            if case .processed(let count) = try Syscall.read(server, into: &buffer) {
                answer += buffer[0..<count]
                if count == 0 { break }
            }
        }
        #expect(answer == Array("heard".utf8))
    }
}
