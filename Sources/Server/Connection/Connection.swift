import Posix
import TLS
import Wire

/// One client connection: the server's side of a `TLSConnection`, around `ConnectionState`.
///
/// Lives on the event loop thread only. The TLS connection core reads the socket, runs the
/// handshake, decrypts, and seals queued replies a record at a time straight to the socket; this
/// type decides what the server does with it. What it holds is bounded by the state's buffer
/// budget: a request starts only while its payload, its largest possible reply and the replies
/// not yet sent fit in the budget; otherwise the frame is held and reading stops until replies
/// drain. Replies queued while one event is handled leave together (small frames share a TLS
/// record and one send(2)), so a slow reader stops our reading. A connection quiet for a whole
/// tick gives back its buffers, OpenSSL's included, so ten thousand idle students cost little. Its
/// last frame is followed by close_notify and a lingering close.
final class Connection: EventHandler {
    let id: UInt64
    /// The peer's IP address as text, for per-address caps, throttles and logs.
    let peerAddress: String
    private unowned let server: ServerCore
    private let tls: TLSConnection
    private var decoder: FrameDecoder
    private(set) var state: ConnectionState

    /// A complete request waiting for the buffer budget; nothing more is read meanwhile.
    private var heldFrame: Frame?
    /// The user this connection is counted under in the server's census (nil: not logged in).
    var countedUserID: Int64?
    /// After the last bytes are written we half-close and read until the peer's EOF, so our final
    /// error frame is not destroyed by a reset caused by unread input (a "lingering close").
    private var lingerDeadline: Int64?
    private var finishing = false
    /// Ticks since the last I/O; at 1 the connection has been quiet for a whole tick.
    private var quietTicks = 0
    /// The server is going away: requests in flight finish, no new one starts (see `drain`).
    private var draining = false
    /// The admin export under way on this connection, for its audit entries (see `ExportCoverage`).
    let exports = ExportCoverage()

    init(
        id: UInt64, peerAddress: String, server: ServerCore, tls: TLSConnection,
        limits: ConnectionState.Limits, now: Int64
    ) {
        self.id = id
        self.peerAddress = peerAddress
        self.server = server
        self.tls = tls
        state = ConnectionState(limits: limits, now: now)
        decoder = FrameDecoder(maxPayload: ProtocolConstants.helloFrameLimit)
    }

    /// The socket, as the loop knows it.
    var fd: Int32 { tls.fd }
    var isClosed: Bool { tls.isClosed }
    var user: AuthenticatedUser? { state.user }
    /// The protocol version its Hello settled on.
    var protocolVersion: UInt16 { state.protocolVersion }

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
        if readable && !isClosed { onReadable() }
    }

    private func onReadable() {
        let now = server.now()
        // At most eight reads per event, so one busy peer cannot keep the loop from the others;
        // a lingering connection only waits for the peer's EOF and drops what it reads.
        switch tls.receive(maxReads: 8, discarding: finishing) {
        case .failed(let error):
            server.logger.debug("connection \(id): \(error)")
            closeNow()
        case .endOfFile:
            // The peer closed its side. Anything it pipelined before that was already read.
            closeNow()
        case .received(0):
            break
        case .received:
            quietTicks = 0
            if !finishing { process(now: now) }
        }
    }

    /// Advances the handshake, decrypts what arrived, and handles complete frames.
    private func process(now: Int64) {
        if state.phase == .handshaking {
            do {
                guard try tls.advanceHandshake() else { return }
                state.handshakeCompleted(now: now)
            } catch {
                // OpenSSL has already sent its alert through the socket output.
                server.logger.debug("connection \(id): TLS handshake failed: \(error)")
                closeNow()
                return
            }
        }
        guard state.phase != .closing else { return }
        do {
            if try tls.readPlaintext({ decoder.append($0) }) == .closed {
                // close_notify from the peer: it will send nothing more.
                processFrames(now: now)
                flush()
                closeNow()
                return
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
        while state.acceptsFrames && !draining {
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
            let decision = state.received(frame, now: now, queuedBytes: tls.queuedBytes, imageReply: server.imageCeiling.replyBytes)
            heldFrame = nil
            switch decision {
            case .welcome:
                send(
                    Frame(server.welcome(version: state.protocolVersion), requestID: frame.requestID, version: state.protocolVersion)
                        .encoded())
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
                send(Frame(error, requestID: frame.requestID, version: state.protocolVersion).encoded())
            }
        }
        updateReadInterest()
    }

    // MARK: Replies

    /// A handler on another thread finished a request of this connection.
    func deliver(requestID: UInt32, outcome: HandlerOutcome, reservation: Reservation) {
        guard !isClosed, state.phase != .closing else { return }
        deliverInline(requestID: requestID, outcome: outcome, reservation: reservation, now: server.now())
        if draining && state.requestsInFlight == 0 {
            closeForShutdown()
            return
        }
        // Frames that waited for an identity change or for room in the budget can go on now.
        processFrames(now: server.now())
        flush()
    }

    /// A request answered on the loop while its frame was being handled: the reply joins the
    /// others of this event and leaves with them when `process` flushes.
    func deliverInline(requestID: UInt32, outcome: HandlerOutcome, reservation: Reservation, now: Int64) {
        guard !isClosed, state.phase != .closing else { return }
        let wasLoggedIn = state.user != nil
        state.requestCompleted(
            requestID: requestID, identity: outcome.identity, reservation: reservation,
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
        tls.send(frame)
    }

    /// Sends a fatal error, then closes once it has been written. `requestID` is the id of the
    /// frame that caused it, or 0 when no frame did (a timeout, a shutdown, a revoked session).
    func fail(_ error: ErrorMessage, requestID: UInt32) {
        guard !isClosed, state.phase != .closing else { return }
        server.logger.debug("connection \(id): closing: \(error.code.name): \(error.message)")
        var fatal = error
        fatal.fatal = true
        // In the connection's version: a code newer than it goes as the code it knows.
        finish(with: Frame(fatal, requestID: requestID, version: state.protocolVersion).encoded())
    }

    /// Queues the last frame of the connection; close_notify and the close follow it.
    private func finish(with frame: [UInt8]) {
        send(frame)
        tls.closeAfterQueuedOutput()
        state.beginClosing()
        heldFrame = nil
        flush()
    }

    /// The server is shutting down: what is in flight is answered, nothing new starts (frames
    /// read but not started are left unanswered: the client sends them again elsewhere), and
    /// then the connection closes with SHUTTING_DOWN.
    func drain() {
        guard !isClosed, state.phase != .closing else { return }
        draining = true
        heldFrame = nil
        if state.phase == .handshaking {
            closeNow()
        } else if state.requestsInFlight == 0 {
            closeForShutdown()
        } else {
            updateReadInterest()
        }
    }

    private func closeForShutdown() {
        fail(
            ErrorMessage(code: .shuttingDown, message: "the server is shutting down or restarting; connect again in a moment"), requestID: 0
        )
    }

    /// The session or the rights this connection logged in with changed elsewhere.
    func accessChanged(_ change: AccessChange) {
        guard let user = state.user, !isClosed else { return }
        switch change {
        case .sessionEnded(let hash) where hash == user.sessionHash:
            fail(
                ErrorMessage(code: .sessionInvalid, fatal: true, message: "your session was logged out on another connection"), requestID: 0
            )
        case .userSessionsEnded(let userID, let keeping) where userID == user.id && keeping != user.sessionHash:
            fail(
                ErrorMessage(
                    code: .sessionInvalid, fatal: true,
                    message: "your password was changed, which ended this session; log in again"), requestID: 0)
        case .adminRightChanged(let userID, let isAdmin) where userID == user.id:
            state.adminRightChanged(to: isAdmin)
        case .renamed(let userID, let name) where userID == user.id:
            state.renamed(to: name)
        case .classesChanged(let userID, let classes, let fallback) where userID == user.id:
            state.classesChanged(classes, fallback: fallback)
        case .accountClosed(let userID, let closure) where userID == user.id:
            fail(ErrorMessage(code: .accountClosed, fatal: true, message: closure.message), requestID: 0)
        default:
            break
        }
    }

    /// The session this connection logged in with no longer exists (found by the session audit).
    func sessionVanished() {
        fail(
            ErrorMessage(
                code: .sessionInvalid, fatal: true, message: "your session ended (logged out, password changed, or expired); log in again"),
            requestID: 0)
    }

    /// Checks deadlines and gives back the buffers of a quiet connection; called from the loop's timer.
    func tick(now: Int64) {
        guard !isClosed else { return }
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
        guard heldFrame == nil, state.phase != .handshaking, tls.releaseIdleMemory() else { return }
        decoder.releaseMemoryIfEmpty()
    }

    // MARK: Output

    /// Sends what is queued as far as the socket takes it; after the last frame, starts the
    /// lingering close.
    func flush() {
        guard !isClosed else { return }
        let queued = tls.queuedBytes
        let result = tls.flush()
        if tls.queuedBytes < queued { quietTicks = 0 }
        switch result {
        case .drained:
            // Everything is written, close_notify included when closing. (A tick may have set a
            // deadline for the final flush already; lingering replaces it.)
            if state.phase == .closing && !finishing { startLingering() }
        case .pushedBack:
            server.metrics.socketPushedBack()
        case .failed(let error):
            server.logger.debug("connection \(id): TLS write failed: \(error)")
            closeNow()
            return
        }
        updateReadInterest()
    }

    private func startLingering() {
        finishing = true
        lingerDeadline = server.now() + 2_000
        Socket.halfClose(fd)
        tls.setReadInterest(true)
    }

    /// Reading pauses while an identity change is pending, a frame waits for the budget, or what
    /// the connection holds has reached it.
    private func updateReadInterest() {
        guard !isClosed else { return }
        if finishing || state.phase == .handshaking {
            tls.setReadInterest(true)
        } else {
            tls.setReadInterest(
                !draining && heldFrame == nil && state.mayRead(queuedBytes: tls.queuedBytes, bufferedBytes: decoder.bufferedByteCount))
        }
    }

    /// Closes the socket at once and forgets the connection.
    func closeNow() {
        guard !isClosed else { return }
        state.beginClosing()
        // The loop forgets the descriptor before it is closed.
        server.connectionClosed(self)
        tls.close()
        heldFrame = nil
    }
}
