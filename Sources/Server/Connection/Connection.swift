#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Shared

/// One client connection: the I/O shell around `ConnectionState`.
///
/// Lives on the event loop thread only. The socket is non-blocking; TLS runs over memory BIOs
/// (`TLSEngine`), so this type alone calls read(2)/write(2) and OpenSSL only transforms bytes.
/// Outgoing frames are encrypted lazily, a chunk at a time, while little ciphertext is waiting,
/// so a large image never sits in memory twice over and a slow reader stops our reading.
final class Connection: EventHandler {
    let id: UInt64
    let fd: Int32
    private unowned let server: ServerCore
    private let tls: TLSEngine
    private var decoder: FrameDecoder
    private(set) var state: ConnectionState

    private var plainQueue: [[UInt8]] = []
    private var plainOffset = 0
    private var cipher: [UInt8] = []
    private var cipherOffset = 0
    private var readInterest = true
    private var writeInterest = false
    private var closed = false
    /// After the last bytes are written we half-close and read until the peer's EOF, so our final
    /// error frame is not destroyed by a reset caused by unread input (a "lingering close").
    private var lingerDeadline: Int64?
    private var finishing = false
    private var closeNotifyQueued = false

    private static let encryptChunk = 64 * 1024
    private static let cipherLowWater = 256 * 1024

    init(id: UInt64, fd: Int32, server: ServerCore, tls: TLSEngine, limits: ConnectionState.Limits, now: Int64) {
        self.id = id
        self.fd = fd
        self.server = server
        self.tls = tls
        state = ConnectionState(limits: limits, now: now)
        decoder = FrameDecoder(maxPayload: ProtocolConstants.helloFrameLimit)
    }

    var isClosed: Bool { closed }
    var user: AuthenticatedUser? { state.user }

    // MARK: Events

    func handleEvent(readable: Bool, writable: Bool, hangup: Bool) {
        if writable { flush() }
        if readable && !closed { onReadable() }
    }

    private func onReadable() {
        let now = server.now()
        var sawData = false
        for _ in 0..<8 {
            let result: IOResult<Int>
            do {
                result = try server.readBuffer.withUnsafeMutableBytes { (raw) throws(SystemError) -> IOResult<Int> in
                    try Syscall.call("read") { read(fd, raw.baseAddress, raw.count) }
                }
            } catch {
                server.logger.debug("connection \(id): \(error)")
                closeNow()
                return
            }
            switch result {
            case .wouldBlock:
                break
            case .processed(0):
                // The peer closed its side. Anything it pipelined before that was already read.
                closeNow()
                return
            case .processed(let count):
                sawData = true
                if finishing { continue }  // lingering: discard
                server.readBuffer.withUnsafeBytes { tls.receiveFromNetwork(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                if count == server.readBuffer.count { continue }
            }
            break
        }
        if sawData && !finishing { process(now: now) }
    }

    /// Advances the handshake, decrypts what arrived, and handles complete frames.
    private func process(now: Int64) {
        if state.phase == .handshaking {
            do {
                switch try tls.handshake() {
                case .complete:
                    state.handshakeCompleted(now: now)
                case .needsMoreData:
                    flush()
                    return
                }
            } catch {
                server.logger.info("connection \(id): TLS handshake failed: \(error)")
                flush()
                closeNow()
                return
            }
        }
        guard state.phase != .closing else { return }
        do {
            while true {
                server.plainBuffer.removeAll(keepingCapacity: true)
                switch try tls.readPlaintext(into: &server.plainBuffer, maxBytes: 256 * 1024) {
                case .bytes:
                    decoder.append(server.plainBuffer)
                    continue
                case .needsMoreData:
                    break
                case .closed:
                    // close_notify from the peer: it will send nothing more.
                    processFrames(now: now)
                    flush()
                    closeNow()
                    return
                }
                break
            }
        } catch {
            server.logger.info("connection \(id): TLS error: \(error)")
            closeNow()
            return
        }
        state.bytesArrived(now: now, insideFrame: decoder.isInsideFrame)
        processFrames(now: now)
        flush()
    }

    private func processFrames(now: Int64) {
        while state.acceptsFrames {
            decoder.maxPayload = state.frameLimit
            let frame: Frame
            do {
                guard let next = try decoder.nextFrame() else { break }
                frame = next
            } catch {
                fail(ErrorMessage(code: error.code, message: error.description), requestID: decoder.currentRequestID ?? 0)
                return
            }
            switch state.received(frame, now: now) {
            case .welcome:
                send(Frame(server.welcome(), requestID: frame.requestID).encoded())
            case .dispatch:
                server.dispatch(self, frame)
            case .reject(let error):
                if error.fatal {
                    fail(error, requestID: frame.requestID)
                    return
                }
                send(Frame(error, requestID: frame.requestID).encoded())
            }
        }
        updateReadInterest()
    }

    // MARK: Replies

    /// A handler finished a request of this connection.
    func deliver(requestID: UInt32, outcome: HandlerOutcome) {
        guard !closed, state.phase != .closing else { return }
        state.requestCompleted(requestID: requestID, identity: outcome.identity, now: server.now())
        send(outcome.frame)
        // Frames that waited for an identity change can be judged now.
        processFrames(now: server.now())
        flush()
    }

    /// Queues one encoded frame for sending.
    func send(_ frame: [UInt8]) {
        guard !closed else { return }
        plainQueue.append(frame)
    }

    /// Sends a fatal error, then closes once it has been written.
    func fail(_ error: ErrorMessage, requestID: UInt32) {
        guard !closed, state.phase != .closing else { return }
        server.logger.info("connection \(id): closing: \(error.code.name): \(error.message)")
        var fatal = error
        fatal.fatal = true
        send(Frame(fatal, requestID: requestID).encoded())
        state.beginClosing()
        flush()
    }

    /// Checks deadlines; called from the loop's timer.
    func tick(now: Int64) {
        guard !closed else { return }
        if let linger = lingerDeadline {
            if now >= linger { closeNow() }
            return
        }
        if state.phase == .closing {
            // Still flushing a final error: give it a bounded time.
            if lingerDeadline == nil { lingerDeadline = now + 5_000 }
            return
        }
        if let error = state.expiredDeadline(now: now) {
            if state.phase == .handshaking { closeNow() } else { fail(error, requestID: 0) }
        }
    }

    // MARK: Output

    /// Encrypts queued frames while little ciphertext waits, and writes what the socket takes.
    func flush() {
        guard !closed else { return }
        while true {
            while cipher.count - cipherOffset < Self.cipherLowWater, !plainQueue.isEmpty {
                encryptNextChunk()
            }
            if state.phase == .closing, plainQueue.isEmpty, !closeNotifyQueued {
                // close_notify goes after the last frame, never before it.
                closeNotifyQueued = true
                tls.close()
            }
            if tls.pendingNetworkBytes > 0 { _ = tls.takeNetworkBytes(into: &cipher, maxBytes: Int.max) }
            let pending = cipher.count - cipherOffset
            if pending == 0 { break }
            let result: IOResult<Int>
            do {
                result = try cipher.withUnsafeBytes { (raw) throws(SystemError) -> IOResult<Int> in
                    try Syscall.call("write") { write(fd, raw.baseAddress! + cipherOffset, pending) }
                }
            } catch {
                server.logger.debug("connection \(id): \(error)")
                closeNow()
                return
            }
            guard case .processed(let written) = result else {
                setWriteInterest(true)
                updateReadInterest()
                return
            }
            cipherOffset += written
            if cipherOffset == cipher.count {
                cipher.removeAll(keepingCapacity: cipher.capacity <= 64 * 1024)
                cipherOffset = 0
            }
        }
        // Everything is written.
        setWriteInterest(false)
        if plainQueue.isEmpty && plainQueue.capacity > 16 { plainQueue = [] }
        if state.phase == .closing && lingerDeadline == nil { startLingering() }
        updateReadInterest()
    }

    private func encryptNextChunk() {
        let frame = plainQueue[0]
        let end = min(frame.count, plainOffset + Self.encryptChunk)
        do {
            try frame.withUnsafeBytes { raw in
                try tls.writePlaintext(UnsafeRawBufferPointer(rebasing: raw[plainOffset..<end]))
            }
        } catch {
            server.logger.info("connection \(id): TLS write failed: \(error)")
            plainQueue.removeAll()
            plainOffset = 0
            return
        }
        if end == frame.count {
            plainQueue.removeFirst()
            plainOffset = 0
        } else {
            plainOffset = end
        }
        _ = tls.takeNetworkBytes(into: &cipher, maxBytes: Int.max)
    }

    private func startLingering() {
        finishing = true
        lingerDeadline = server.now() + 2_000
        shutdown(fd, Int32(SHUT_WR))
        setReadInterest(true)
    }

    private var outboundBytes: Int { cipher.count - cipherOffset + plainQueue.reduce(0) { $0 + $1.count } - plainOffset }

    /// Reading pauses while an identity change is pending or too much output is queued.
    private func updateReadInterest() {
        guard !closed else { return }
        if finishing { setReadInterest(true); return }
        let wanted = state.phase != .closing && !state.awaitingIdentity && outboundBytes < server.configuration.outboundHighWater
        setReadInterest(wanted)
    }

    private func setReadInterest(_ on: Bool) {
        guard on != readInterest else { return }
        readInterest = on
        server.loop.setInterest(fd, read: readInterest, write: writeInterest)
    }

    private func setWriteInterest(_ on: Bool) {
        guard on != writeInterest else { return }
        writeInterest = on
        server.loop.setInterest(fd, read: readInterest, write: writeInterest)
    }

    /// Closes the socket at once and forgets the connection.
    func closeNow() {
        guard !closed else { return }
        closed = true
        state.beginClosing()
        server.connectionClosed(self)
        Syscall.close(fd)
        plainQueue = []
        cipher = []
    }
}
