import Wire
import TLS
import Posix

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

/// One non-blocking TLS connection of the load generator.
///
/// The same `TLSEngine` as the client and the server, over memory BIOs: `LoadLoop` reports
/// readiness, this type does read(2)/write(2). Requests queued while one readiness event is
/// handled leave together, as a pipelining client would send them: sealed 16 KB at a time into
/// the loop's shared buffer and written with as few write(2) calls as the socket allows.
final class LoadConnection {
    enum Phase: Equatable {
        case handshaking, awaitingWelcome, awaitingLogin, ready, closed
    }

    let slot: Int
    /// Index of the bench user this connection logs in as.
    let user: Int
    let role: ConnectionRole
    let fd: Int32
    /// Monotonic nanoseconds when the TCP connection was opened.
    let openedAt: UInt64
    private(set) var phase: Phase = .handshaking
    private unowned let loop: LoadLoop
    private weak var delegate: (any LoadConnectionDelegate)?
    private let tls: TLSEngine
    private let resumeToken: String?
    private var decoder = FrameDecoder(maxPayload: 64 << 20)
    /// Frames queued for the next TLS write.
    private var plaintext: [UInt8] = []
    /// Ciphertext the socket did not take yet; empty unless it pushes back.
    private var outbound: [UInt8] = []
    private var outboundOffset = 0
    private var writeInterest = false
    private var nextRequestID: UInt32 = 1
    private(set) var inFlight: [UInt32: PendingRequest] = [:]

    /// Scenario state kept per connection by the run.
    var knownVersion: UInt64 = 0
    var operationsIssued = 0

    /// Connects (blocking, which is immediate on loopback), starts the TLS handshake and registers
    /// with `loop`. `resumeToken` nil stops after Welcome.
    init(slot: Int, user: Int, role: ConnectionRole, host: String, port: Int, context: TLSContext,
         resumeToken: String?, loop: LoadLoop, delegate: any LoadConnectionDelegate) throws {
        self.slot = slot
        self.user = user
        self.role = role
        self.loop = loop
        self.delegate = delegate
        self.resumeToken = resumeToken
        openedAt = MonotonicClock.nanoseconds()
        fd = try Socket.connect(host: host, port: port, timeout: 10)
        do {
            try Socket.setNonBlocking(fd)
            tls = try TLSEngine(context: context, role: .client(serverName: host))
        } catch {
            Syscall.close(fd)
            throw error
        }
        do {
            try loop.register(self)
        } catch {
            Syscall.close(fd)
            throw error
        }
        advanceHandshake(now: openedAt)
    }

    var isClosed: Bool { phase == .closed }

    // MARK: Sending

    /// Queues a request; it leaves with the next `flush()` (at the latest when the current event ends).
    @discardableResult
    func send<M: WireMessage>(_ message: M, kind: OperationKind, snapID: UInt64 = 0, now: UInt64) -> UInt32 {
        let id = takeRequestID()
        plaintext.append(contentsOf: Frame(message, requestID: id).encoded())
        inFlight[id] = PendingRequest(kind: kind, sentAt: now, snapID: snapID)
        return id
    }

    private func takeRequestID() -> UInt32 {
        let id = nextRequestID
        nextRequestID = nextRequestID == UInt32.max ? 1 : nextRequestID + 1
        return id
    }

    /// Encrypts the queued frames a record at a time into the loop's buffer and writes what the
    /// socket takes; ciphertext it refuses waits here, and so does plaintext not yet encrypted.
    func flush() {
        guard phase != .closed, writeLeftover() else { return }
        let out = loop.outBuffer
        var consumed = 0
        var filled = 0
        while true {
            filled += tls.takeNetworkBytes(into: UnsafeMutableRawBufferPointer(rebasing: out[filled...]))
            if out.count - filled >= Self.recordCeiling && consumed < plaintext.count {
                let end = min(plaintext.count, consumed + Self.recordSize)
                do {
                    try plaintext.withUnsafeBytes { try tls.writePlaintext(UnsafeRawBufferPointer(rebasing: $0[consumed..<end])) }
                } catch {
                    fail("TLS_WRITE_FAILED", now: MonotonicClock.nanoseconds())
                    return
                }
                consumed = end
                continue
            }
            if filled == 0 { break }
            var written = 0
            writing: while written < filled {
                switch try? Syscall.write(fd, UnsafeRawBufferPointer(rebasing: out[written..<filled])) {
                case .processed(let count): written += count
                case .wouldBlock: break writing
                case nil:
                    fail("WRITE_FAILED", now: MonotonicClock.nanoseconds())
                    return
                }
            }
            if written < filled {
                outbound = Array(UnsafeRawBufferPointer(rebasing: out[written..<filled]))
                outboundOffset = 0
                plaintext.removeFirst(consumed)
                setWriteInterest(true)
                return
            }
            filled = 0
        }
        plaintext.removeAll(keepingCapacity: role == .load && plaintext.capacity <= 1 << 20)
        setWriteInterest(false)
    }

    /// Writes ciphertext a short write left behind; false while the socket still refuses it.
    private func writeLeftover() -> Bool {
        while outboundOffset < outbound.count {
            switch try? Syscall.write(fd, outbound, from: outboundOffset) {
            case .processed(let count):
                outboundOffset += count
            case .wouldBlock:
                setWriteInterest(true)
                return false
            case nil:
                fail("WRITE_FAILED", now: MonotonicClock.nanoseconds())
                return false
            }
        }
        if !outbound.isEmpty {
            outbound = []
            outboundOffset = 0
        }
        return true
    }

    /// One TLS record's worth of plaintext, and the room a sealed one needs.
    private static let recordSize = TLSEngine.maxRecordPlaintext
    private static let recordCeiling = recordSize + 256

    private func setWriteInterest(_ on: Bool) {
        guard on != writeInterest else { return }
        writeInterest = on
        loop.setWriteInterest(self, on)
    }

    // MARK: Events

    /// Handles readiness reported by the loop.
    func handleEvent(readable: Bool, writable: Bool) {
        if writable { flush() }
        if readable && phase != .closed { receive() }
        flush()
    }

    private func receive() {
        var sawData = false
        while true {
            let buffer = loop.readBuffer
            switch try? Syscall.read(fd, into: buffer) {
            case .processed(0):
                if sawData { process() }
                fail("CONNECTION_CLOSED", now: MonotonicClock.nanoseconds())
                return
            case .processed(let count):
                sawData = true
                tls.receiveFromNetwork(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                if count == buffer.count { continue }
            case .wouldBlock:
                break
            case nil:
                fail("READ_FAILED", now: MonotonicClock.nanoseconds())
                return
            }
            break
        }
        if sawData { process() }
    }

    private func process() {
        let now = MonotonicClock.nanoseconds()
        if phase == .handshaking {
            advanceHandshake(now: now)
            guard phase != .handshaking, phase != .closed else { return }
        }
        let plain = loop.plainBuffer
        while phase != .closed {
            let result: TLSEngine.ReadResult
            do {
                result = try tls.readPlaintext(into: plain)
            } catch {
                fail("TLS_ERROR", now: now)
                return
            }
            switch result {
            case .bytes(let count):
                decoder.append(UnsafeRawBufferPointer(rebasing: plain[0..<count]))
                continue
            case .needsMoreData:
                break
            case .closed:
                handleFrames(now: now)
                fail("CONNECTION_CLOSED", now: now)
                return
            }
            break
        }
        handleFrames(now: now)
    }

    private func advanceHandshake(now: UInt64) {
        do {
            switch try tls.handshake() {
            case .needsMoreData, .needsWritable:  // memory output: never pushed back
                flush()
            case .complete:
                phase = .awaitingWelcome
                _ = send(Hello(clientName: "snapshare-bench"), kind: .handshake, now: now)
                flush()
            }
        } catch {
            flush()
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
        guard phase != .closed else { return }
        if tls.isHandshakeComplete {
            tls.close()
            plaintext = []
            flush()
        }
        shutDown()
    }

    private func fail(_ reason: String, now: UInt64) {
        guard phase != .closed else { return }
        shutDown()
        delegate?.connection(self, failed: reason, now: now)
    }

    private func shutDown() {
        phase = .closed
        loop.deregister(self)
        Syscall.close(fd)
        plaintext = []
        outbound = []
    }
}
