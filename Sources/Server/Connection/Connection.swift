#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Shared

/// One client connection: the I/O shell around `ConnectionState`.
///
/// Lives on the event loop thread only. The socket is non-blocking; TLS runs over memory BIOs
/// (`TLSEngine`), so this type alone calls read(2)/write(2) and OpenSSL only transforms bytes.
/// Bytes pass through the loop's shared `ScratchBuffers`: a connection keeps ciphertext of its
/// own only while its socket pushes back. Replies queued while one event is handled leave
/// together: small frames share TLS records and one write(2). Large frames are encrypted one
/// record at a time, only as far as the socket takes them, so an image never sits in memory
/// twice over and a slow reader stops our reading. A connection quiet for a whole tick gives
/// back its buffers, OpenSSL's included, so ten thousand idle students cost little.
final class Connection: EventHandler {
    let id: UInt64
    let fd: Int32
    private unowned let server: ServerCore
    private let tls: TLSEngine
    private var decoder: FrameDecoder
    private(set) var state: ConnectionState

    /// Encoded frames waiting to be encrypted, oldest first; `plainOffset` bytes of the first are done.
    private var plainQueue: [[UInt8]] = []
    private var plainOffset = 0
    /// Ciphertext the socket did not take yet; empty unless the socket pushes back.
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
    /// Ticks since the last I/O; at 1 the connection has been quiet for a whole tick.
    private var quietTicks = 0

    /// Plaintext handed to TLS at once: one full record.
    private static let encryptChunk = ScratchBuffers.recordSize
    /// Room one more sealed record needs in the outbound buffer (plaintext plus header, tag and type byte).
    private static let recordCeiling = ScratchBuffers.recordSize + 256

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
        let scratch = server.scratch.network
        var sawData = false
        for _ in 0..<8 {
            let result: IOResult<Int>
            do {
                result = try Syscall.call("read") { read(fd, scratch.baseAddress, scratch.count) }
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
                tls.receiveFromNetwork(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
                if count == scratch.count { continue }
            }
            break
        }
        if sawData {
            quietTicks = 0
            if !finishing { process(now: now) }
        }
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
        let scratch = server.scratch.plaintext
        do {
            while true {
                switch try tls.readPlaintext(into: scratch) {
                case .bytes(let count):
                    decoder.append(UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
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

    /// A handler on another thread finished a request of this connection.
    func deliver(requestID: UInt32, outcome: HandlerOutcome) {
        guard !closed, state.phase != .closing else { return }
        state.requestCompleted(requestID: requestID, identity: outcome.identity, now: server.now())
        send(outcome.frame)
        // Frames that waited for an identity change can be judged now.
        processFrames(now: server.now())
        flush()
    }

    /// A request answered on the loop while its frame was being handled: the reply joins the
    /// others of this event and leaves with them when `process` flushes.
    func deliverInline(requestID: UInt32, outcome: HandlerOutcome, now: Int64) {
        guard !closed, state.phase != .closing else { return }
        state.requestCompleted(requestID: requestID, identity: outcome.identity, now: now)
        send(outcome.frame)
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

    /// Checks deadlines and gives back the buffers of a quiet connection; called from the loop's timer.
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
            return
        }
        quietTicks += 1
        if quietTicks == 2 { releaseIdleMemory() }
    }

    /// Quiet since the tick before last: drop every buffer that only carries bytes in transit.
    private func releaseIdleMemory() {
        guard plainQueue.isEmpty, cipherOffset == cipher.count, state.phase != .handshaking else { return }
        plainQueue = []
        cipher = []
        cipherOffset = 0
        decoder.releaseMemoryIfEmpty()
        tls.releaseIdleMemory()
    }

    // MARK: Output

    /// Encrypts queued frames a record at a time into the loop's outbound buffer, and writes what
    /// the socket takes.
    ///
    /// Why a record at a time: OpenSSL appends each record to the output memory BIO, which grows
    /// (and copies) to hold whatever we let pile up. Taking every record out as soon as it is
    /// sealed keeps that BIO at one record and the ciphertext in one buffer that stays in cache.
    func flush() {
        guard !closed else { return }
        // Ciphertext the socket refused earlier goes first.
        guard writePendingCipher() else { return }
        let outbound = server.scratch.outbound
        while true {
            var filled = 0
            while true {
                filled += tls.takeNetworkBytes(into: UnsafeMutableRawBufferPointer(rebasing: outbound[filled...]))
                guard outbound.count - filled >= Self.recordCeiling else { break }
                if plainQueue.isEmpty {
                    guard state.phase == .closing, !closeNotifyQueued else { break }
                    // close_notify goes after the last frame, never before it.
                    closeNotifyQueued = true
                    tls.close()
                    continue
                }
                encryptNext()
                if closed { return }
            }
            if filled == 0 { break }
            quietTicks = 0
            let result: IOResult<Int>
            do {
                result = try Syscall.call("write") { write(fd, outbound.baseAddress, filled) }
            } catch {
                server.logger.debug("connection \(id): \(error)")
                closeNow()
                return
            }
            let written: Int
            switch result {
            case .processed(let n): written = n
            case .wouldBlock: written = 0
            }
            if written < filled {
                // The socket pushes back: keep the rest, wait until it is writable.
                cipher = Array(UnsafeRawBufferPointer(rebasing: outbound[written..<filled]))
                cipherOffset = 0
                setWriteInterest(true)
                updateReadInterest()
                return
            }
        }
        // Everything is written.
        setWriteInterest(false)
        if state.phase == .closing && lingerDeadline == nil { startLingering() }
        updateReadInterest()
    }

    /// Writes ciphertext left from a short write; false while the socket still pushes back (or it failed).
    private func writePendingCipher() -> Bool {
        while cipherOffset < cipher.count {
            let result: IOResult<Int>
            do {
                result = try cipher.withUnsafeBytes { (raw) throws(SystemError) -> IOResult<Int> in
                    try Syscall.call("write") { write(fd, raw.baseAddress! + cipherOffset, raw.count - cipherOffset) }
                }
            } catch {
                server.logger.debug("connection \(id): \(error)")
                closeNow()
                return false
            }
            guard case .processed(let written) = result else {
                setWriteInterest(true)
                updateReadInterest()
                return false
            }
            quietTicks = 0
            cipherOffset += written
        }
        if !cipher.isEmpty {
            cipher = []
            cipherOffset = 0
        }
        return true
    }

    /// Hands the next piece of queued plaintext to TLS: small frames gathered into one record,
    /// or a chunk of a large frame.
    private func encryptNext() {
        let record = server.scratch.record
        do {
            if plainOffset == 0 && plainQueue.count > 1 && plainQueue[0].count < record.count {
                // One seal and one record header for many replies, instead of one each.
                var used = 0
                var taken = 0
                while taken < plainQueue.count, used + plainQueue[taken].count <= record.count {
                    plainQueue[taken].withUnsafeBytes { frame in
                        (record.baseAddress! + used).copyMemory(from: frame.baseAddress!, byteCount: frame.count)
                    }
                    used += plainQueue[taken].count
                    taken += 1
                }
                try tls.writePlaintext(UnsafeRawBufferPointer(rebasing: record[0..<used]))
                plainQueue.removeFirst(taken)
                return
            }
            let frame = plainQueue[0]
            let end = min(frame.count, plainOffset + Self.encryptChunk)
            let offset = plainOffset
            let failure = frame.withUnsafeBytes { (raw) -> TLSError? in
                do throws(TLSError) {
                    try tls.writePlaintext(UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            if end == frame.count {
                plainQueue.removeFirst()
                plainOffset = 0
            } else {
                plainOffset = end
            }
        } catch {
            server.logger.info("connection \(id): TLS write failed: \(error)")
            closeNow()
        }
    }

    private func startLingering() {
        finishing = true
        lingerDeadline = server.now() + 2_000
        shutdown(fd, Int32(SHUT_WR))
        setReadInterest(true)
    }

    private var outboundBytes: Int {
        cipher.count - cipherOffset + tls.pendingNetworkBytes + plainQueue.reduce(0) { $0 + $1.count } - plainOffset
    }

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
