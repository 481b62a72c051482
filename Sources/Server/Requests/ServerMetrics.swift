import Foundation
import Posix
import Synchronization
import Wire

/// Counters for `admin stats` and `GET /metrics`, updated from any thread: atomics for single
/// numbers, one mutex for the labelled tallies (a few dozen request types by a few dozen
/// results, so the label sets stay bounded).
package final class ServerMetrics: Sendable {
    private let open = Atomic<Int64>(0)
    private let accepted = Atomic<Int64>(0)
    private let requests = Atomic<Int64>(0)
    private let sendWaits = Atomic<Int64>(0)
    private let refused = Atomic<Int64>(0)
    private let shed = Atomic<Int64>(0)
    let startedAt: Int64

    // For `GET /metrics` (see `ServerMetrics+Exposition`).
    /// Connections per state as the event loop last counted them (every 250 ms).
    let handshaking = Atomic<Int64>(0)
    let anonymous = Atomic<Int64>(0)
    let loggedIn = Atomic<Int64>(0)
    let snapsPosted = Atomic<Int64>(0)
    let snapBytesStored = Atomic<Int64>(0)
    let purges = Atomic<Int64>(0)
    let purgeFailures = Atomic<Int64>(0)
    let purgedImages = Atomic<Int64>(0)
    let backups = Atomic<Int64>(0)
    let backupFailures = Atomic<Int64>(0)
    /// When the last scheduled backup was written, Unix seconds; 0 before the first.
    let lastBackupAt = Atomic<Int64>(0)
    /// The served leaf certificate's notAfter in Unix seconds; `Int64.min` when unknown.
    let certificateNotAfter = Atomic<Int64>(Int64.min)
    /// When this object was made, on the monotonic clock, for the uptime.
    let startedMonotonic = MonotonicClock.nanoseconds()
    let tallies = Mutex(MetricTallies())

    init(startedAt: Int64) { self.startedAt = startedAt }

    func connectionOpened() {
        open.add(1, ordering: .relaxed)
        accepted.add(1, ordering: .relaxed)
    }

    func connectionClosed() { open.subtract(1, ordering: .relaxed) }
    func requestReceived() { requests.add(1, ordering: .relaxed) }
    func socketPushedBack() { sendWaits.add(1, ordering: .relaxed) }
    func connectionRefused() { refused.add(1, ordering: .relaxed) }
    func connectionShed() { shed.add(1, ordering: .relaxed) }

    var openConnections: Int64 { open.load(ordering: .relaxed) }
    var acceptedConnections: Int64 { accepted.load(ordering: .relaxed) }
    package var requestCount: Int64 { requests.load(ordering: .relaxed) }
    /// Times a connection's socket was full and its output had to wait for the peer to read.
    package var socketSendWaits: Int64 { sendWaits.load(ordering: .relaxed) }
    /// Connections closed at accept because their address was at its cap.
    package var refusedConnections: Int64 { refused.load(ordering: .relaxed) }
    /// Connections that had not logged in, closed to make room when the server was full.
    package var shedConnections: Int64 { shed.load(ordering: .relaxed) }
}

/// What the monitoring counters are told, by the layer that knows it.
extension ServerMetrics {
    /// A request of `type` was answered with `result` after `nanoseconds`.
    func requestCompleted(_ type: MessageType, result: RequestResult, nanoseconds: UInt64) {
        tallies.withLock { $0.requestCompleted(type, result: result, nanoseconds: nanoseconds) }
    }

    /// The event loop's count of its connections by state.
    func connectionStates(_ states: ConnectionStates) {
        handshaking.store(Int64(states.handshaking), ordering: .relaxed)
        anonymous.store(Int64(states.anonymous), ordering: .relaxed)
        loggedIn.store(Int64(states.loggedIn), ordering: .relaxed)
    }

    /// A snap of `bytes` was stored (its commit returned).
    func snapPosted(bytes: Int) {
        snapsPosted.add(1, ordering: .relaxed)
        snapBytesStored.add(Int64(bytes), ordering: .relaxed)
    }

    /// A password or class-code attempt was refused by the throttle named `kind`.
    func throttleRefused(_ kind: String) {
        tallies.withLock { $0.throttleRefusals[kind, default: 0] += 1 }
    }

    /// A scheduled backup was written.
    func backupFinished(at date: Date) {
        backups.add(1, ordering: .relaxed)
        lastBackupAt.store(Int64(date.timeIntervalSince1970), ordering: .relaxed)
    }

    /// A scheduled backup failed.
    func backupFailed() { backupFailures.add(1, ordering: .relaxed) }

    /// An expiry purge finished: how many images it erased, or that it failed.
    func purgeFinished(_ result: Result<Int, any Error>) {
        purges.add(1, ordering: .relaxed)
        switch result {
        case .success(let erased): purgedImages.add(Int64(erased), ordering: .relaxed)
        case .failure: purgeFailures.add(1, ordering: .relaxed)
        }
    }

    /// The certificate now served ends at `date` (nil: unknown). Call it again whenever the
    /// served certificate changes (a reload).
    func certificateExpires(at date: Date?) {
        let seconds = date.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? Int64.min
        certificateNotAfter.store(seconds, ordering: .relaxed)
    }
}

/// How a request ended: `ok`, or the error code of its Error reply.
enum RequestResult: Hashable, Sendable {
    case ok
    case error(ErrorCode)

    /// The `result` label: `ok` or the code's name in docs/PROTOCOL.md (`ALREADY_VIEWED`); a
    /// number the protocol does not name is `other`, so the label set stays the enum's.
    var label: String {
        switch self {
        case .ok: "ok"
        case .error(let code): code.name.hasPrefix("ERROR_") ? "other" : code.name
        }
    }
}

/// The labelled counters, kept under one lock.
struct MetricTallies: Sendable {
    struct RequestKey: Hashable, Sendable {
        var type: UInt16
        var result: RequestResult
    }

    var requests: [RequestKey: Int64] = [:]
    var latencies: [UInt16: HistogramCounts] = [:]
    var throttleRefusals: [String: Int64] = [:]

    mutating func requestCompleted(_ type: MessageType, result: RequestResult, nanoseconds: UInt64) {
        requests[RequestKey(type: type.rawValue, result: result), default: 0] += 1
        latencies[type.rawValue, default: HistogramCounts()].observe(nanoseconds: nanoseconds)
    }
}
