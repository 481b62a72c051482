#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared
import Synchronization

/// The I/O side of the server: the listener, the connections, and the hand-off of requests to
/// the handlers and of their answers back to the connections. Everything except `stop()` and
/// the handler completions runs on the event loop thread.
final class ServerCore: @unchecked Sendable {
    let configuration: ServerConfiguration
    let loop: EventLoop
    let logger: Logger
    private let tlsContext: TLSContext
    private let handler: RequestHandler
    private var listener: Listener?
    private var connections: [UInt64: Connection] = [:]
    private var nextConnectionID: UInt64 = 1
    let metrics: ServerMetrics
    /// Buffers shared by every connection (the loop handles one at a time).
    let scratch = ScratchBuffers()
    private let limits: ConnectionState.Limits
    private let stopped = Atomic<Bool>(false)

    init(configuration: ServerConfiguration, tlsContext: TLSContext, handler: RequestHandler,
         metrics: ServerMetrics, logger: Logger) throws {
        self.configuration = configuration
        self.tlsContext = tlsContext
        self.handler = handler
        self.metrics = metrics
        self.logger = logger
        MemoryPolicy.apply()
        loop = try EventLoop()
        limits = ConnectionState.Limits(
            handshakeTimeout: configuration.handshakeTimeoutMilliseconds,
            idleTimeout: configuration.idleTimeoutMilliseconds,
            frameTimeout: configuration.frameTimeoutMilliseconds,
            maxRequestsInFlight: configuration.maxRequestsInFlight,
            maxFrameBeforeLogin: UInt32(configuration.maxFrameBytesBeforeLogin),
            maxFrame: UInt32(configuration.maxFrameBytes))
    }

    func now() -> Int64 { EventLoop.monotonicMilliseconds() }

    /// Binds the listening socket and starts the loop thread; returns the bound port.
    func start() throws -> Int {
        guard !stopped.load(ordering: .acquiring) else { throw ConfigurationError("this server was stopped; start a new one") }
        let fd = try Socket.listen(host: configuration.host, port: configuration.port)
        let port = Socket.localPort(fd)
        let listener = Listener(fd: fd, server: self)
        self.listener = listener
        try loop.register(fd, handler: listener, read: true, write: false)
        loop.every(milliseconds: 250) { [weak self] in self?.tick() }
        loop.start()
        return port
    }

    /// Stops accepting, tells every connection the server is going away, and stops the loop.
    /// Only the first call does anything; a core that never started has nothing to stop.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing), loop.started else { return }
        let announced = DispatchSemaphore(value: 0)
        loop.execute { [self] in
            if let listener {
                loop.deregister(listener.fd)
                Syscall.close(listener.fd)
                self.listener = nil
            }
            for connection in connections.values {
                connection.fail(ErrorMessage(code: .shuttingDown, message: "server is shutting down"), requestID: 0)
            }
            announced.signal()
        }
        if announced.wait(timeout: .now() + 2) == .success {
            // Give the final frames a moment to leave.
            usleep(50_000)
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

    // MARK: Connections (loop thread)

    var hasRoomForConnection: Bool { connections.count < configuration.maxConnections }

    func accepted(_ fd: Int32) {
        let engine: TLSEngine
        do {
            engine = try TLSEngine(context: tlsContext, role: .server, output: .socket(fd))
        } catch {
            logger.error("cannot create TLS session: \(error)")
            Syscall.close(fd)
            return
        }
        Socket.setNoDelay(fd)
        let id = nextConnectionID
        nextConnectionID += 1
        let connection = Connection(id: id, fd: fd, server: self, tls: engine, limits: limits, now: now())
        do {
            try loop.register(fd, handler: connection, read: true, write: false)
        } catch {
            logger.error("cannot register connection: \(error)")
            Syscall.close(fd)
            return
        }
        connections[id] = connection
        metrics.connectionOpened()
    }

    func connectionClosed(_ connection: Connection) {
        loop.deregister(connection.fd)
        if connections.removeValue(forKey: connection.id) != nil { metrics.connectionClosed() }
        if hasRoomForConnection { listener?.resume() }
    }

    private func tick() {
        let now = now()
        for connection in Array(connections.values) { connection.tick(now: now) }
        if let listener, !listener.accepting, hasRoomForConnection { listener.resume() }
    }

    // MARK: Requests

    func welcome() -> Welcome {
        Welcome(
            version: ProtocolConstants.version, serverName: "snapshare-server",
            maxFrameBytes: UInt32(configuration.maxFrameBytes),
            maxFrameBytesBeforeLogin: UInt32(configuration.maxFrameBytesBeforeLogin),
            maxRequestsInFlight: UInt16(clamping: configuration.maxRequestsInFlight),
            maxImageBytes: UInt32(configuration.maxImageBytes),
            maxImageDimension: UInt32(configuration.maxImageDimension),
            maxImagePixels: UInt32(configuration.maxImagePixels),
            idleTimeoutSeconds: UInt32(configuration.idleTimeoutMilliseconds / 1000),
            serverTime: RequestHandler.wallClock())
    }

    /// Hands a request to the handlers. Cheap requests are answered inline on the loop; GetPhoto
    /// and OpenSnap run as one storage job each, the rest on the handler threads; their replies
    /// come back through `loop.execute`.
    func dispatch(_ connection: Connection, _ frame: Frame) {
        metrics.requestReceived()
        let context = RequestContext(requestID: frame.requestID, user: connection.user)
        if let outcome = handler.handleInline(frame, context: context) {
            connection.deliverInline(requestID: frame.requestID, outcome: outcome, now: now())
            return
        }
        let connectionID = connection.id
        let requestID = frame.requestID
        handler.handle(frame, context: context) { [self] outcome in
            loop.execute { [self] in
                guard let connection = connections[connectionID], !connection.isClosed else {
                    // The peer left first. For OpenSnap the view stays claimed: at most once.
                    logger.debug("connection \(connectionID) gone before reply to request \(requestID)")
                    return
                }
                connection.deliver(requestID: requestID, outcome: outcome)
            }
        }
    }

}
