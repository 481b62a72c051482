import Wire
import TLS
import Posix

/// One client connection: the I/O shell around `ConnectionState`.
///
/// Lives on the event loop thread only. What it holds is bounded by the state's buffer budget:
/// a request starts only while its payload, its largest possible reply and the replies not yet
/// sent fit in the budget; otherwise the frame is held and reading stops until replies drain. The socket is non-blocking. This type reads it and hands
/// the ciphertext to `TLSEngine`'s input memory BIO through the loop's shared `ScratchBuffers`;
/// sealed records leave through the engine's socket output, straight from OpenSSL's record buffer
/// to the kernel. Replies queued while one event is handled leave together: small frames share a
/// TLS record and one send(2). Large frames are sealed one record at a time, only as far as the
/// socket takes them, so an image never sits in memory twice over and a slow reader stops our
/// reading. A connection quiet for a whole tick gives back its buffers, OpenSSL's included, so
/// ten thousand idle students cost little.
final class Connection: EventHandler {
    let id: UInt64
    let fd: Int32
    /// The peer's IP address as text, for per-address caps, throttles and logs.
    let peerAddress: String
    private unowned let server: ServerCore
    private let tls: TLSEngine
    private var decoder: FrameDecoder
    private(set) var state: ConnectionState

    /// Encoded frames waiting to be encrypted, oldest first, as they came (an image reply is its
    /// head, then its image as the image cache holds it); `plainOffset` bytes of the first are done.
    private var plainQueue: [[UInt8]] = []
    private var plainOffset = 0
    /// Bytes in `plainQueue` not yet sent.
    private var queuedBytes = 0
    /// A complete request waiting for the buffer budget; nothing more is read meanwhile.
    private var heldFrame: Frame?
    /// The user this connection is counted under in the server's census (nil: not logged in).
    var countedUserID: Int64?
    /// The socket pushed back while a record of this many gathered bytes was leaving: the retry
    /// must hand OpenSSL the same bytes (see `TLSEngine.SendResult.wouldBlock`).
    private var pendingGather: Int?
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

    init(id: UInt64, fd: Int32, peerAddress: String, server: ServerCore, tls: TLSEngine,
         limits: ConnectionState.Limits, now: Int64) {
        self.id = id
        self.fd = fd
        self.peerAddress = peerAddress
        self.server = server
        self.tls = tls
        state = ConnectionState(limits: limits, now: now)
        decoder = FrameDecoder(maxPayload: ProtocolConstants.helloFrameLimit)
    }

    var isClosed: Bool { closed }
    var user: AuthenticatedUser? { state.user }

    // MARK: Events

    func handleEvent(readable: Bool, writable: Bool) {
        if writable {
            // A handshake that the socket pushed back resumes where it stopped.
            if state.phase == .handshaking {
                process(now: server.now())
            } else {
                flush()
                // Sent replies make room in the budget for a request that was held.
                if heldFrame != nil {
                    processFrames(now: server.now())
                    flush()
                }
            }
        }
        if readable && !closed { onReadable() }
    }

    private func onReadable() {
        let now = server.now()
        let scratch = server.scratch.network
        var sawData = false
        for _ in 0..<8 {
            let result: IOResult<Int>
            do {
                result = try Syscall.read(fd, into: scratch)
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
                    setWriteInterest(false)
                case .needsMoreData:
                    setWriteInterest(false)
                    return
                case .needsWritable:
                    setWriteInterest(true)
                    return
                }
            } catch {
                // OpenSSL has already sent its alert through the socket output.
                server.logger.debug("connection \(id): TLS handshake failed: \(error)")
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
            server.logger.debug("connection \(id): TLS error: \(error)")
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
            if let held = heldFrame {
                frame = held
            } else {
                do {
                    guard let next = try decoder.nextFrame() else { break }
                    frame = next
                } catch {
                    // The error answers the frame whose header was refused.
                    fail(ErrorMessage(code: error.code, message: error.description), requestID: decoder.lastHeaderRequestID ?? 0)
                    return
                }
            }
            let decision = state.received(frame, now: now, queuedBytes: queuedBytes, imageReply: server.imageCeiling.replyBytes)
            heldFrame = nil
            switch decision {
            case .welcome:
                send(Frame(server.welcome(), requestID: frame.requestID).encoded())
            case .dispatch(let reservation):
                server.dispatch(self, frame, reservation: reservation)
            case .hold:
                heldFrame = frame
                updateReadInterest()
                return
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
    func deliver(requestID: UInt32, outcome: HandlerOutcome, reservation: Reservation) {
        guard !closed, state.phase != .closing else { return }
        deliverInline(requestID: requestID, outcome: outcome, reservation: reservation, now: server.now())
        // Frames that waited for an identity change or for room in the budget can go on now.
        processFrames(now: server.now())
        flush()
    }

    /// A request answered on the loop while its frame was being handled: the reply joins the
    /// others of this event and leaves with them when `process` flushes.
    func deliverInline(requestID: UInt32, outcome: HandlerOutcome, reservation: Reservation, now: Int64) {
        guard !closed, state.phase != .closing else { return }
        let wasLoggedIn = state.user != nil
        state.requestCompleted(requestID: requestID, identity: outcome.identity, reservation: reservation,
                               replyBytes: outcome.byteCount, now: now)
        if wasLoggedIn != (state.user != nil) || outcome.identity != .unchanged {
            server.identityChanged(self, wasLoggedIn: wasLoggedIn)
        }
        if outcome.closesConnection {
            finish(with: outcome.frame)
        } else {
            send(outcome.frame)
            send(outcome.trailingImage)
        }
    }

    /// Queues one encoded frame, or a piece of one, for sending.
    func send(_ frame: [UInt8]) {
        guard !closed, !frame.isEmpty else { return }
        plainQueue.append(frame)
        queuedBytes += frame.count
    }

    /// Sends a fatal error, then closes once it has been written. `requestID` is the id of the
    /// frame that caused it, or 0 when no frame did (a timeout, a shutdown, a revoked session).
    func fail(_ error: ErrorMessage, requestID: UInt32) {
        guard !closed, state.phase != .closing else { return }
        server.logger.debug("connection \(id): closing: \(error.code.name): \(error.message)")
        var fatal = error
        fatal.fatal = true
        finish(with: Frame(fatal, requestID: requestID).encoded())
    }

    /// Queues the last frame of the connection; close_notify and the close follow it.
    private func finish(with frame: [UInt8]) {
        send(frame)
        state.beginClosing()
        heldFrame = nil
        flush()
    }

    /// The session or the rights this connection logged in with changed elsewhere.
    func accessChanged(_ change: AccessChange) {
        guard let user = state.user, !closed else { return }
        switch change {
        case .sessionEnded(let hash) where hash == user.sessionHash:
            fail(ErrorMessage(code: .sessionInvalid, fatal: true, message: "your session was logged out on another connection"), requestID: 0)
        case .userSessionsEnded(let userID, let keeping) where userID == user.id && keeping != user.sessionHash:
            fail(ErrorMessage(code: .sessionInvalid, fatal: true,
                              message: "your password was changed, which ended this session; log in again"), requestID: 0)
        case .adminRightChanged(let userID, let isAdmin) where userID == user.id:
            state.adminRightChanged(to: isAdmin)
        default:
            break
        }
    }

    /// The session this connection logged in with no longer exists (found by the session audit).
    func sessionVanished() {
        fail(ErrorMessage(code: .sessionInvalid, fatal: true, message: "your session ended (logged out, password changed, or expired); log in again"),
             requestID: 0)
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
            lingerDeadline = now + 5_000
            return
        }
        if let (error, isFrameDeadline) = state.expiredDeadline(now: now) {
            if state.phase == .handshaking {
                closeNow()
            } else {
                // A frame's deadline answers that frame when its header has arrived.
                fail(error, requestID: isFrameDeadline ? decoder.currentRequestID ?? 0 : 0)
            }
            return
        }
        quietTicks += 1
        if quietTicks == 2 { releaseIdleMemory() }
    }

    /// Quiet since the tick before last: drop every buffer that only carries bytes in transit.
    private func releaseIdleMemory() {
        guard plainQueue.isEmpty, heldFrame == nil, !writeInterest, state.phase != .handshaking else { return }
        plainQueue = []
        decoder.releaseMemoryIfEmpty()
        tls.releaseIdleMemory()
    }

    // MARK: Output

    /// Seals queued frames a record at a time and sends each as the socket takes it.
    ///
    /// Why a record at a time: the socket output sends each record as soon as it is sealed, so
    /// ciphertext is never buffered by us; when the socket pushes back, OpenSSL keeps the one record
    /// it was sending and the rest waits as plaintext until the socket is writable again.
    func flush() {
        guard !closed else { return }
        while true {
            if plainQueue.isEmpty {
                guard state.phase == .closing, !closeNotifyQueued else { break }
                // close_notify goes after the last frame, never before it.
                guard tls.close() else {
                    setWriteInterest(true)
                    updateReadInterest()
                    return
                }
                closeNotifyQueued = true
                break
            }
            switch sendNext() {
            case .sent:
                quietTicks = 0
            case .wouldBlock:
                server.metrics.socketPushedBack()
                setWriteInterest(true)
                updateReadInterest()
                return
            case .failed:
                return
            }
        }
        // Everything is written. (A tick may have set a deadline for the final flush already;
        // lingering replaces it.)
        setWriteInterest(false)
        if state.phase == .closing && !finishing { startLingering() }
        updateReadInterest()
    }

    private enum SendOutcome { case sent, wouldBlock, failed }

    /// Seals and sends the next record's worth of queued plaintext: straight from the queue's head
    /// when a whole record's worth is left in it (an image), else gathered from the head and what
    /// follows it (small replies together; an image's head with its first bytes; its last bytes
    /// with the next reply) into the shared record buffer, so every record but the last is full.
    /// Every record but the last queued goes with MSG_MORE (`TLSEngine.send(_:more:)`).
    private func sendNext() -> SendOutcome {
        let recordSize = TLSEngine.maxRecordPlaintext
        let result: TLSEngine.SendResult
        do {
            if pendingGather == nil, plainQueue[0].count - plainOffset >= recordSize {
                let offset = plainOffset
                let more = queuedBytes > recordSize
                result = try plainQueue[0].withUnsafeBytes { (raw) throws(TLSError) -> TLSEngine.SendResult in
                    try tls.send(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + recordSize]), more: more)
                }
            } else {
                let record = server.scratch.record
                let used = gather(into: record, upTo: pendingGather ?? recordSize)
                result = try tls.send(UnsafeRawBufferPointer(rebasing: record[0..<used]), more: queuedBytes > used)
                pendingGather = result == .wouldBlock ? used : nil
            }
        } catch {
            server.logger.debug("connection \(id): TLS write failed: \(error)")
            closeNow()
            return .failed
        }
        guard case .sent(let sent) = result else { return .wouldBlock }
        // Usually all of it; less when the peer asked for smaller records (TLS max_fragment_length).
        consume(sent)
        return .sent
    }

    /// Copies up to `limit` bytes from the head of the queue on into `record`; returns how many.
    private func gather(into record: UnsafeMutableRawBufferPointer, upTo limit: Int) -> Int {
        var used = 0
        var offset = plainOffset
        for part in plainQueue {
            let count = min(part.count - offset, limit - used)
            part.withUnsafeBytes { bytes in
                (record.baseAddress! + used).copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            }
            used += count
            offset = 0
            if used == limit { break }
        }
        return used
    }

    /// Drops `count` sent bytes from the head of the queue.
    private func consume(_ count: Int) {
        queuedBytes -= count
        var left = count
        while left > 0 {
            let rest = plainQueue[0].count - plainOffset
            guard left >= rest else {
                plainOffset += left
                return
            }
            left -= rest
            plainQueue.removeFirst()
            plainOffset = 0
        }
    }

    private func startLingering() {
        finishing = true
        lingerDeadline = server.now() + 2_000
        Socket.halfClose(fd)
        setReadInterest(true)
    }

    /// Reading pauses while an identity change is pending, a frame waits for the budget, or what
    /// the connection holds has reached it.
    private func updateReadInterest() {
        guard !closed else { return }
        if finishing { setReadInterest(true); return }
        if state.phase == .handshaking {
            setReadInterest(true)
        } else {
            setReadInterest(heldFrame == nil && state.mayRead(queuedBytes: queuedBytes, bufferedBytes: decoder.bufferedByteCount))
        }
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
        queuedBytes = 0
        heldFrame = nil
    }
}
