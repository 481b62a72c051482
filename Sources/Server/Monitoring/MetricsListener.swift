import Foundation
import Posix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `--metrics HOST:PORT`: a plain HTTP/1.1 listener on its own socket and its own thread, for a
/// monitoring host on 127.0.0.1 or an internal network (no TLS, no login: it shows counts, never
/// content). One connection at a time, one request each (`Connection: close`): the head is read
/// within `HTTPRequestHead.maximumBytes` and `requestDeadlineMilliseconds`, answered by `respond`, and the
/// connection closed. A peer that sends nothing holds the thread for the deadline at most.
final class MetricsListener: @unchecked Sendable {
    /// The time a connection has to send its request head, and again to take the answer.
    static let requestDeadlineMilliseconds: Int64 = 2_000

    /// The bound port (the asked one, or the one port 0 picked).
    let port: Int
    private let fd: Int32
    private let wake: EventFD
    private let finished = DispatchSemaphore(value: 0)
    private let phase = Mutex(Phase.bound)
    private let respond: @Sendable (HTTPRequestHead) -> HTTPResponse
    private let logger: Logger

    private enum Phase {
        /// Bound, no thread yet.
        case bound
        /// The thread accepts and answers.
        case serving
        case stopped
    }

    /// Binds at once, so a bad address is a start-up error; serving starts with `start()`.
    init(host: String, port: Int, logger: Logger, respond: @escaping @Sendable (HTTPRequestHead) -> HTTPResponse) throws {
        do {
            fd = try Socket.listen(host: host, port: port, backlog: 64)
        } catch {
            throw ConfigurationError("cannot listen for --metrics on \(host):\(port): \(error)")
        }
        self.port = Socket.localPort(fd)
        wake = try EventFD()
        self.logger = logger
        self.respond = respond
    }

    func start() {
        let starts = phase.withLock { phase in
            defer { if phase == .bound { phase = .serving } }
            return phase == .bound
        }
        guard starts else { return }
        NamedThread.start("metrics") { [self] in
            while acceptOne() {}
            Syscall.close(fd)
            finished.signal()
        }
    }

    /// Stops accepting and waits for the thread to finish the connection it serves, if any.
    /// Only the first call does anything.
    func stop() {
        switch phase.withLock({ phase in
            defer { phase = .stopped }
            return phase
        }) {
        case .serving:
            wake.signal()
            finished.wait()
        case .bound:
            Syscall.close(fd) // never started: no thread owns the socket
        case .stopped:
            break
        }
    }

    /// Waits for a connection or the stop signal; false once stopped.
    private func acceptOne() -> Bool {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)]
        guard (try? Syscall.poll(&descriptors, timeoutMilliseconds: -1)) != nil, descriptors[1].revents == 0 else { return false }
        guard case .processed(let connection)? = try? Socket.accept(fd) else {
            // Out of descriptors, say: the next poll would say "readable" at once again.
            Thread.sleep(forTimeInterval: 0.1)
            return true
        }
        serve(connection)
        Syscall.close(connection)
        return true
    }

    private func serve(_ connection: Int32) {
        let deadline = MonotonicClock.milliseconds() + Self.requestDeadlineMilliseconds
        let response: HTTPResponse
        switch readHead(connection, deadline: deadline) {
        case .complete(let head)?:
            response = respond(head)
            logger.log(.debug, "metrics request", fields: ["method": head.method, "path": head.path, "status": String(response.status)])
        case .malformed(let why)?:
            response = .text(400, "Bad Request", why)
        case .incomplete?, nil:
            return // the peer went away or was too slow: nobody to answer
        }
        // Answering may have taken a while (`/health` waits up to a second): sending gets its own time.
        let sendBy = MonotonicClock.milliseconds() + Self.requestDeadlineMilliseconds
        write(response.encoded, to: connection, deadline: sendBy)
        // A refused head may have more bytes behind it; closing with them unread would reset the
        // connection and could destroy the answer before the peer reads it. Half-close, then
        // drop what still comes until the peer closes (or the deadline).
        Socket.halfClose(connection)
        discardInput(connection, deadline: sendBy)
    }

    private func discardInput(_ connection: Int32, deadline: Int64) {
        var chunk = [UInt8](repeating: 0, count: 2048)
        while true {
            let left = deadline - MonotonicClock.milliseconds()
            guard left > 0, (try? Syscall.waitUntilReadable(connection, timeoutMilliseconds: Int32(left))) == true else { return }
            switch try? Syscall.read(connection, into: &chunk) {
            case .processed(let count)? where count > 0: continue
            case .wouldBlock?: continue
            default: return
            }
        }
    }

    /// Reads until the head is complete or malformed; nil when the peer closed or the deadline passed.
    private func readHead(_ connection: Int32, deadline: Int64) -> HTTPRequestHead.Parse? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        while true {
            let left = deadline - MonotonicClock.milliseconds()
            guard left > 0, (try? Syscall.waitUntilReadable(connection, timeoutMilliseconds: Int32(left))) == true else { return nil }
            switch try? Syscall.read(connection, into: &chunk) {
            case .processed(let count)? where count > 0:
                // Never more than one byte past the cap: enough for the parser to refuse it.
                received += chunk[..<min(count, HTTPRequestHead.maximumBytes + 1 - received.count)]
                let parsed = HTTPRequestHead.parse(received)
                if parsed != .incomplete { return parsed }
            case .wouldBlock?: continue
            default: return nil
            }
        }
    }

    /// Sends `bytes` as far as the peer takes them before the deadline.
    private func write(_ bytes: [UInt8], to connection: Int32, deadline: Int64) {
        var offset = 0
        while offset < bytes.count {
            switch try? Syscall.send(connection, bytes, from: offset) {
            case .processed(let count)? where count > 0: offset += count
            case .wouldBlock?:
                let left = deadline - MonotonicClock.milliseconds()
                guard left > 0, (try? Syscall.waitUntilWritable(connection, timeoutMilliseconds: Int32(left))) == true else { return }
            default: return
            }
        }
    }
}
