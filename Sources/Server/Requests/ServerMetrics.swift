import Synchronization

/// Counters for `admin stats`, updated from any thread.
public final class ServerMetrics: Sendable {
    private let open = Atomic<Int64>(0)
    private let accepted = Atomic<Int64>(0)
    private let requests = Atomic<Int64>(0)
    private let sendWaits = Atomic<Int64>(0)
    private let refused = Atomic<Int64>(0)
    private let shed = Atomic<Int64>(0)
    public let startedAt: Int64

    public init(startedAt: Int64) { self.startedAt = startedAt }

    func connectionOpened() {
        open.add(1, ordering: .relaxed)
        accepted.add(1, ordering: .relaxed)
    }

    func connectionClosed() { open.subtract(1, ordering: .relaxed) }
    func requestReceived() { requests.add(1, ordering: .relaxed) }
    func socketPushedBack() { sendWaits.add(1, ordering: .relaxed) }
    func connectionRefused() { refused.add(1, ordering: .relaxed) }
    func connectionShed() { shed.add(1, ordering: .relaxed) }

    public var openConnections: Int64 { open.load(ordering: .relaxed) }
    public var acceptedConnections: Int64 { accepted.load(ordering: .relaxed) }
    public var requestCount: Int64 { requests.load(ordering: .relaxed) }
    /// Times a connection's socket was full and its output had to wait for the peer to read.
    public var socketSendWaits: Int64 { sendWaits.load(ordering: .relaxed) }
    /// Connections closed at accept because their address was at its cap.
    public var refusedConnections: Int64 { refused.load(ordering: .relaxed) }
    /// Connections that had not logged in, closed to make room when the server was full.
    public var shedConnections: Int64 { shed.load(ordering: .relaxed) }
}
