import Posix
import TLS
import Wire

/// A request the bench sent and is waiting for.
struct PendingRequest {
    var kind: OperationKind
    /// Monotonic nanoseconds when it was handed to TLS.
    var sentAt: UInt64
    /// The snap an OpenSnap asked for (0 otherwise).
    var snapID: UInt64
}

/// What a `LoadConnection` tells the run about.
protocol LoadConnectionDelegate: AnyObject {
    /// TLS, Hello and (when asked for) Resume are done: the connection may carry load.
    func connectionReady(_ connection: LoadConnection, now: UInt64)
    /// A reply to a request sent with `send`.
    func connection(_ connection: LoadConnection, received frame: Frame, for request: PendingRequest, now: UInt64)
    /// The connection died; `reason` names the failure for the error counts.
    func connection(_ connection: LoadConnection, failed reason: String, now: UInt64)
}

/// One connection of the load generator: the bench's side of a `TLSConnection`.
///
/// The same TLS connection core as the server's connections: `LoadLoop` reports readiness, the
/// core reads the socket, runs the handshake, decrypts, and seals queued requests straight to the
/// socket. This type sets the connection up (Hello, then Resume when asked for) and matches
/// replies to the requests in flight. Requests queued while one readiness event is handled leave
/// together, as a pipelining client would send them: small ones share a TLS record and a send(2).
final class LoadConnection {
    enum Phase: Equatable {
        case handshaking, awaitingWelcome, awaitingLogin, ready, closed
    }

    let slot: Int
    /// Index of the bench user this connection logs in as.
    let user: Int
    let role: ConnectionRole
    /// Monotonic nanoseconds when the TCP connection was opened.
    let openedAt: UInt64
    private(set) var phase: Phase = .handshaking
    private unowned let loop: LoadLoop
    private weak var delegate: (any LoadConnectionDelegate)?
    private let tls: TLSConnection
    private let resumeToken: String?
    private var decoder = FrameDecoder(maxPayload: 64 << 20)
    private var nextRequestID: UInt32 = 1
    private(set) var inFlight: [UInt32: PendingRequest] = [:]

    /// Scenario state kept per connection by the run.
    var knownVersion: UInt64 = 0
    var operationsIssued = 0

    /// Connects (blocking, which is immediate on loopback), starts the TLS handshake and registers
    /// with `loop`. `resumeToken` nil stops after Welcome.
    init(
        slot: Int, user: Int, role: ConnectionRole, host: String, port: Int, context: TLSContext,
        resumeToken: String?, loop: LoadLoop, delegate: any LoadConnectionDelegate
    ) throws {
        self.slot = slot
        self.user = user
        self.role = role
        self.loop = loop
        self.delegate = delegate
        self.resumeToken = resumeToken
        openedAt = MonotonicClock.nanoseconds()
        let fd = try Socket.connect(host: host, port: port, timeout: 10)
        do {
            try Socket.setNonBlocking(fd)
            tls = try TLSConnection(
                fd: fd, context: context, role: .client(serverName: host), scratch: loop.scratch,
                registry: loop)
        } catch {
            Syscall.close(fd)
            throw error
        }
        do {
            try loop.register(self)
        } catch {
            tls.close()
            throw error
        }
        advanceHandshake(now: openedAt)
    }

    /// The socket, as the loop knows it.
    var fd: Int32 { tls.fd }
    var isClosed: Bool { phase == .closed }

    // MARK: Sending

    /// Queues a request; it leaves with the next `flush()` (at the latest when the current event ends).
    @discardableResult
    func send<M: WireMessage>(_ message: M, kind: OperationKind, snapID: UInt64 = 0, now: UInt64) -> UInt32 {
        let id = takeRequestID()
        tls.send(Frame(message, requestID: id).encoded())
        inFlight[id] = PendingRequest(kind: kind, sentAt: now, snapID: snapID)
        return id
    }

    private func takeRequestID() -> UInt32 {
        let id = nextRequestID
        nextRequestID = nextRequestID == UInt32.max ? 1 : nextRequestID + 1
        return id
    }

    /// Sends the queued requests as far as the socket takes them; the rest leaves once it is writable.
    func flush() {
        guard phase != .closed else { return }
        if case .failed(let error) = tls.flush() {
            // send(2) failing shows as an unexpected end of file; anything else is TLS's own.
            fail(error.kind == .unexpectedEOF ? "WRITE_FAILED" : "TLS_WRITE_FAILED", now: MonotonicClock.nanoseconds())
        }
    }

    // MARK: Events

    /// Handles readiness reported by the loop.
    func handleEvent(readable: Bool, writable: Bool) {
        if writable {
            // A handshake that the socket pushed back resumes where it stopped.
            if phase == .handshaking { advanceHandshake(now: MonotonicClock.nanoseconds()) } else { flush() }
        }
        if readable && phase != .closed { receive() }
        flush()
    }

    private func receive() {
        switch tls.receive() {
        case .endOfFile(let count):
            if count > 0 { process() }
            fail("CONNECTION_CLOSED", now: MonotonicClock.nanoseconds())
        case .failed:
            fail("READ_FAILED", now: MonotonicClock.nanoseconds())
        case .received(let count):
            if count > 0 { process() }
        }
    }

    private func process() {
        let now = MonotonicClock.nanoseconds()
        if phase == .handshaking {
            advanceHandshake(now: now)
            guard phase != .handshaking, phase != .closed else { return }
        }
        let end: TLSConnection.ReadEnd
        do {
            end = try tls.readPlaintext { decoder.append($0) }
        } catch {
            fail("TLS_ERROR", now: now)
            return
        }
        handleFrames(now: now)
        if end == .closed { fail("CONNECTION_CLOSED", now: now) }
    }

    private func advanceHandshake(now: UInt64) {
        do {
            guard try tls.advanceHandshake() else { return }
            phase = .awaitingWelcome
            // Only today's version: every reply is read in today's layouts.
            _ = send(
                Hello(minVersion: ProtocolConstants.current, maxVersion: ProtocolConstants.current, clientName: "snapshare-bench"),
                kind: .handshake, now: now)
            flush()
        } catch {
            // OpenSSL has already sent its alert through the socket.
            fail("TLS_HANDSHAKE_FAILED", now: now)
        }
    }

    private func handleFrames(now: UInt64) {
        while phase != .closed {
            let frame: Frame
            do {
                guard let next = try decoder.nextFrame() else { return }
                frame = next
            } catch {
                fail("MALFORMED_REPLY", now: now)
                return
            }
            guard let request = inFlight.removeValue(forKey: frame.requestID) else {
                // Id 0 is a fatal error that answers no request (timeout, shutdown).
                if frame.type == MessageType.error.rawValue, let error = try? frame.decode(ErrorMessage.self) {
                    fail(error.code.name, now: now)
                } else {
                    fail("UNEXPECTED_REPLY", now: now)
                }
                return
            }
            switch phase {
            case .awaitingWelcome:
                guard frame.type == MessageType.welcome.rawValue else { return failSetup(frame, now: now) }
                if let token = resumeToken {
                    phase = .awaitingLogin
                    _ = send(Resume(token: token), kind: .handshake, now: now)
                } else {
                    phase = .ready
                    delegate?.connectionReady(self, now: now)
                }
            case .awaitingLogin:
                guard frame.type == MessageType.authenticated.rawValue else { return failSetup(frame, now: now) }
                phase = .ready
                delegate?.connectionReady(self, now: now)
            case .ready:
                delegate?.connection(self, received: frame, for: request, now: now)
            case .handshaking, .closed:
                return
            }
        }
    }

    private func failSetup(_ frame: Frame, now: UInt64) {
        if frame.type == MessageType.error.rawValue, let error = try? frame.decode(ErrorMessage.self) {
            fail("SETUP_" + error.code.name, now: now)
        } else {
            fail("SETUP_UNEXPECTED_REPLY", now: now)
        }
    }

    // MARK: Closing

    /// Sends close_notify and closes, as a polite client leaves.
    func close() {
        shutDown(notifyingPeer: true)
    }

    private func fail(_ reason: String, now: UInt64) {
        guard phase != .closed else { return }
        shutDown(notifyingPeer: false)
        delegate?.connection(self, failed: reason, now: now)
    }

    private func shutDown(notifyingPeer: Bool) {
        guard phase != .closed else { return }
        phase = .closed
        loop.deregister(self)
        tls.close(notifyingPeer: notifyingPeer)
    }
}
