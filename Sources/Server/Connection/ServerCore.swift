import CommandLineParsing
import Foundation
import Posix
import Synchronization
import TLS
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// The I/O side of the server: the listener, the connections, and the hand-off of requests to
/// the handlers and of their answers back to the connections. Everything except `stop()` and
/// the handler completions runs on the event loop thread.
final class ServerCore: @unchecked Sendable {
    let configuration: ServerConfiguration
    let loop: EventLoop
    let logger: Logger
    /// Who new handshakes meet; a reload replaces it, and connections made before keep theirs.
    private var tlsContext: TLSContext
    private let handler: RequestHandler
    private var listener: Listener?
    private var connections: [UInt64: Connection] = [:] {
        didSet { openConnections.set(connections.count) }
    }
    /// How many of them are open, for `stop` and `drain`, which wait on other threads for them to close.
    private let openConnections = OpenConnections()
    private var nextConnectionID: UInt64 = 1
    let metrics: ServerMetrics
    /// How much an image reply can be, for the connections' budgets.
    let imageCeiling: ImageCeiling
    /// Buffers shared by every connection (the loop handles one at a time).
    let scratch = ScratchBuffers()
    private let limits: ConnectionState.Limits
    private let stopped = Atomic<Bool>(false)
    /// Set by `drain`: no new connections, and no new requests on the ones open.
    private var draining = false
    /// Who holds how many connections, for the per-address and per-user caps.
    private var census = ConnectionCensus()
    /// Notices sessions ended and rights changed by other processes.
    private let audit: SessionAudit

    init(
        configuration: ServerConfiguration, tlsContext: TLSContext, handler: RequestHandler,
        storage: StorageExecutor, imageCeiling: ImageCeiling, metrics: ServerMetrics, logger: Logger
    ) throws {
        self.configuration = configuration
        self.imageCeiling = imageCeiling
        self.tlsContext = tlsContext
        self.handler = handler
        self.metrics = metrics
        self.logger = logger
        MemoryPolicy.apply()
        loop = try EventLoop()
        audit = SessionAudit(storage: storage, loop: loop)
        limits = ConnectionState.Limits(
            handshakeTimeout: configuration.handshakeTimeoutMilliseconds,
            idleTimeout: configuration.idleTimeoutMilliseconds,
            frameTimeout: configuration.frameTimeoutMilliseconds,
            loginTimeout: configuration.loginTimeoutMilliseconds,
            maxRequestsInFlight: configuration.maxRequestsInFlight,
            maxFrameBeforeLogin: UInt32(configuration.maxFrameBytesBeforeLogin),
            maxFrame: UInt32(configuration.maxFrameBytes),
            // A budget below one largest frame could never assemble that frame.
            bufferBudget: max(configuration.connectionBufferBytes, configuration.maxFrameBytes + 2 * FrameHeader.size),
            protocolVersions: configuration.protocolVersions)
    }

    func now() -> Int64 { MonotonicClock.milliseconds() }

    /// Binds the listening socket and starts the loop thread; returns the bound port.
    func start() throws -> Int {
        guard !stopped.load(ordering: .acquiring) else { throw ConfigurationError("this server was stopped; start a new one") }
        let fd = try listeningSocket()
        let port = Socket.localPort(fd)
        let listener = Listener(fd: fd, server: self)
        self.listener = listener
        try loop.register(fd, handler: listener, read: true, write: false)
        loop.every(milliseconds: 250) { [weak self] in self?.tick() }
        loop.every(milliseconds: 1000) { [weak self] in self?.auditSessions() }
        loop.start()
        return port
    }

    /// The listening socket; an address in use says what is probably holding it.
    private func listeningSocket() throws -> Int32 {
        let result = Result { () throws(SystemError) -> Int32 in try Socket.listen(host: configuration.host, port: configuration.port) }
        if case .failure(let error) = result, error.errno == EADDRINUSE {
            let address = HostPort(host: configuration.host, port: UInt16(clamping: configuration.port))
            throw ConfigurationError(
                """
                cannot listen on \(address): the address is already in use. Another snapshare-server is probably \
                running there (stop it first), or another program has the port; choose another with --listen HOST:PORT
                """)
        }
        return try result.get()
    }

    /// Stops accepting, tells every connection the server is going away, and stops the loop.
    /// Only the first call does anything; a core that never started has nothing to stop.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing), loop.started else { return }
        let announced = DispatchSemaphore(value: 0)
        loop.execute { [self] in
            closeListener()
            for connection in connections.values {
                connection.fail(ErrorMessage(code: .shuttingDown, message: "server is shutting down"), requestID: 0)
            }
            announced.signal()
        }
        if announced.wait(timeout: .now() + 2) == .success {
            // Give the final frames a moment to leave: a connection closes once its frame and
            // close_notify are out and its peer has gone.
            _ = openConnections.waitForNone(until: Date().addingTimeInterval(0.05))
        }
        loop.stop()
        guard loop.join() else {
            // Closing its sockets now would race with it, and its connections point back at
            // this core: keep the core alive for as long as that thread may still run.
            logger.error("the event loop did not stop within 10 s; its connections are left open")
            _ = Unmanaged.passRetained(self)
            return
        }
        for connection in connections.values { connection.closeNow() }
    }

    /// New handshakes use `context` from now on; connections already up keep the one they were
    /// made with (OpenSSL counts its references).
    func replaceTLSContext(_ context: TLSContext) {
        loop.execute { [self] in tlsContext = context }
    }

    /// Stops accepting, and lets every connection finish the requests it has in flight before it
    /// closes with SHUTTING_DOWN and close_notify; waits until all have closed, `timeout` has
    /// passed, or `interrupted` says to give up (it is asked every 50 ms). Returns how many
    /// connections were still open; `stop()` closes those.
    func drain(timeoutMilliseconds: Int64, interrupted: () -> Bool) -> Int {
        guard loop.started, !stopped.load(ordering: .acquiring) else { return 0 }
        loop.execute { [self] in
            draining = true
            closeListener()
            for connection in Array(connections.values) { connection.drain() }
        }
        let deadline = Date().addingTimeInterval(Double(timeoutMilliseconds) / 1000)
        var open = 0
        repeat {
            open = openConnections.waitForNone(until: min(deadline, Date().addingTimeInterval(0.05)))
        } while open > 0 && Date() < deadline && !interrupted()
        return open
    }

    private func closeListener() {
        guard let listener else { return }
        loop.deregister(listener.fd)
        Syscall.close(listener.fd)
        self.listener = nil
    }

    // MARK: Connections (loop thread)

    /// A new connection can be taken: there is room, or an anonymous one to make room with.
    var canAccept: Bool { !draining && (connections.count < configuration.maxConnections || census.anonymousCount > 0) }

    func accepted(_ fd: Int32) {
        let address = Socket.peerAddress(fd) ?? "unknown"
        if let refusal = census.refusal(address: address, configuration: configuration) {
            metrics.connectionRefused()
            census.noteRefused(address: address, reason: refusal)
            Syscall.close(fd)
            return
        }
        if connections.count >= configuration.maxConnections { shedAnonymousConnection() }
        let tls: TLSConnection
        do {
            tls = try TLSConnection(fd: fd, context: tlsContext, role: .server, scratch: scratch, registry: loop)
        } catch {
            logger.error("cannot create TLS session: \(error)")
            Syscall.close(fd)
            return
        }
        Socket.setNoDelay(fd)
        let id = nextConnectionID
        nextConnectionID += 1
        let connection = Connection(id: id, peerAddress: address, server: self, tls: tls, limits: limits, now: now())
        do {
            try loop.register(fd, handler: connection, read: true, write: false)
        } catch {
            logger.error("cannot register connection: \(error)")
            tls.close()
            return
        }
        connections[id] = connection
        census.opened(id: id, address: address)
        metrics.connectionOpened()
    }

    /// The server is full: the oldest connection that has not logged in makes room, so a
    /// flood of anonymous connections can never keep logged-in users out.
    private func shedAnonymousConnection() {
        while let id = census.oldestAnonymous() {
            guard let connection = connections[id], !connection.isClosed, connection.user == nil else { continue }
            metrics.connectionShed()
            logger.debug("connection \(id) from \(connection.peerAddress) shed: the server is full")
            // One still in its TLS handshake cannot be told why.
            if connection.state.phase != .handshaking {
                connection.fail(
                    ErrorMessage(
                        code: .tooManyConnections,
                        message: "the server is full; connections that have not logged in are closed first"),
                    requestID: 0)
            }
            connection.closeNow()
            return
        }
    }

    func connectionClosed(_ connection: Connection) {
        loop.deregister(connection.fd)
        if connections.removeValue(forKey: connection.id) != nil {
            census.closed(id: connection.id, address: connection.peerAddress, userID: connection.countedUserID)
            connection.countedUserID = nil
            metrics.connectionClosed()
        }
        if canAccept { listener?.resume() }
    }

    /// A connection logged in, out, or in as someone else: recount it, and close the user's
    /// oldest connection when the user now has more than allowed.
    func identityChanged(_ connection: Connection, wasLoggedIn: Bool) {
        let newUserID = connection.user?.id
        guard newUserID != connection.countedUserID else { return }
        census.moved(id: connection.id, address: connection.peerAddress, from: connection.countedUserID, to: newUserID)
        connection.countedUserID = newUserID
        guard let userID = newUserID, let user = connection.user else { return }
        while census.connections(ofUser: userID).count > configuration.maxConnectionsPerUser,
            let oldest = census.connections(ofUser: userID).first, oldest != connection.id
        {
            guard let victim = connections[oldest] else {
                census.forget(id: oldest, userID: userID)
                continue
            }
            logger.info("user \(user.name) has more than \(configuration.maxConnectionsPerUser) connections; closing the oldest")
            victim.fail(
                ErrorMessage(
                    code: .tooManyConnections,
                    message: "\(user.name) has more than \(configuration.maxConnectionsPerUser) connections; this, the oldest, is closed"),
                requestID: 0)
            victim.closeNow()
        }
    }

    private func tick() {
        let now = now()
        for connection in Array(connections.values) { connection.tick(now: now) }
        metrics.connectionStates(ConnectionStates(connections.values))
        if let listener, !listener.accepting, canAccept { listener.resume() }
        for line in census.refusalReport(now: now) { logger.warning(line) }
    }

    // MARK: Access changes

    /// Applies a handler's change to every other live connection it concerns.
    private func apply(_ change: AccessChange, except origin: UInt64) {
        for connection in Array(connections.values) where connection.id != origin {
            connection.accessChanged(change)
        }
    }

    /// Once a second: when any process ended a session or changed a user's rights, checks the
    /// sessions of the live connections and applies what changed.
    private func auditSessions() {
        let hashes = { [self] in
            Dictionary(connections.values.compactMap { $0.user.map { ($0.sessionHash, $0.id) } }, uniquingKeysWith: { first, _ in first })
        }
        audit.check(liveSessions: hashes, now: handler.clock.now()) { [self] results in
            loop.execute { [self] in
                let access = Dictionary(results.map { ($0.tokenHash, $0) }, uniquingKeysWith: { a, _ in a })
                for connection in Array(connections.values) {
                    guard let user = connection.user, let entry = access[user.sessionHash] else { continue }
                    if let isAdmin = entry.isAdmin {
                        if isAdmin != user.isAdmin { connection.accessChanged(.adminRightChanged(userID: user.id, isAdmin: isAdmin)) }
                        if entry.name != user.name { connection.accessChanged(.renamed(userID: user.id, name: entry.name)) }
                        connection.accessChanged(.classesChanged(userID: user.id, classes: entry.classes, fallback: entry.defaultClass))
                    } else {
                        logger.info("the session of \(user.name) on connection \(connection.id) ended elsewhere; closing it")
                        if let closure = entry.closure {
                            connection.accessChanged(.accountClosed(userID: user.id, closure))
                        } else {
                            connection.sessionVanished()
                        }
                    }
                }
            }
        }
    }

    // MARK: Requests

    /// The Welcome of a connection that settled on protocol `version`.
    func welcome(version: UInt16) -> Welcome {
        Welcome(
            version: version, serverName: "snapshare-server",
            maxFrameBytes: UInt32(configuration.maxFrameBytes),
            maxFrameBytesBeforeLogin: UInt32(configuration.maxFrameBytesBeforeLogin),
            maxRequestsInFlight: UInt16(clamping: configuration.maxRequestsInFlight),
            maxImageBytes: UInt32(configuration.maxImageBytes),
            maxImageDimension: UInt32(configuration.maxImageDimension),
            maxImagePixels: UInt32(configuration.maxImagePixels),
            idleTimeoutSeconds: UInt32(configuration.idleTimeoutMilliseconds / 1000),
            serverTime: handler.clock.now())
    }

    /// Hands a request to where its route says it runs (`RequestTable`): on the loop at once,
    /// as one storage job, or on the handler threads; replies from elsewhere come back through
    /// `loop.execute`.
    func dispatch(_ connection: Connection, _ frame: Frame, reservation: Reservation) {
        metrics.requestReceived()
        var context = RequestContext(
            requestID: frame.requestID, peerAddress: connection.peerAddress,
            protocolVersion: connection.protocolVersion)
        context.exports = connection.exports
        let request = IncomingRequest(frame: frame, sender: connection.user, context: context)
        // ConnectionState dispatches only frames that have a route.
        guard let route = RequestTable.route(frame.type) else { preconditionFailure("no route for type \(frame.type)") }
        if route.venue == .eventLoop {
            connection.deliverInline(
                requestID: frame.requestID, outcome: handler.answerInline(route, request),
                reservation: reservation, now: now())
            return
        }
        let connectionID = connection.id
        let requestID = frame.requestID
        handler.handle(route, request) { [self] outcome in
            loop.execute { [self] in
                // Other connections learn of a logout before its Ok goes out.
                if let change = outcome.access { apply(change, except: connectionID) }
                guard let connection = connections[connectionID], !connection.isClosed else {
                    // The peer left first. For OpenSnap the view stays claimed: at most once.
                    logger.debug("connection \(connectionID) gone before reply to request \(requestID)")
                    return
                }
                connection.deliver(requestID: requestID, outcome: outcome, reservation: reservation)
            }
        }
    }
}

/// How many connections are open: set by the loop at each change, waited on by other threads.
private final class OpenConnections: @unchecked Sendable {
    /// Guards `count`; broadcast at each change.
    private let condition = NSCondition()
    private var count = 0

    func set(_ count: Int) {
        condition.lock()
        self.count = count
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until none is open or `deadline` has passed; how many are open then.
    func waitForNone(until deadline: Date) -> Int {
        condition.lock()
        defer { condition.unlock() }
        while count > 0 && condition.wait(until: deadline) {}
        return count
    }
}
