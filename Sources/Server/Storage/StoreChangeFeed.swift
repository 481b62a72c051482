import Foundation
import Posix
import PostgreSQL
import Synchronization

/// What changed, as far as polling clients care: something every user may see (a post, an
/// admin change), or one user's own listing (they opened a snap).
public enum StoreChange: Sendable, Equatable {
    case everyone
    case user(Int64)

    var payload: String {
        switch self {
        case .everyone: "*"
        case .user(let id): "u:\(id)"
        }
    }

    init?(payload: String) {
        if payload == "*" { self = .everyone; return }
        guard payload.hasPrefix("u:"), let id = Int64(payload.dropFirst(2)) else { return nil }
        self = .user(id)
    }
}

/// Changes made by the other server instances sharing a PostgreSQL database, so that a Poll on
/// any instance sees a post, an open or an admin change made on another (issue 13).
///
/// Each change is sent with NOTIFY on one channel after its transaction committed, from a
/// connection of its own on a serial queue, so no request waits for it. A thread LISTENs on a
/// second connection and hands the others' changes to `onRemoteChange` (its own are skipped by
/// their sender's process id). After a lost connection it reconnects with a growing pause and
/// reports `.everyone` once, since notifications sent meanwhile are gone.
public final class PostgresChangeFeed: @unchecked Sendable {
    static let channel = "snapshare_changes"

    private let conninfo: String
    private let queue = DispatchQueue(label: "snapshare.change-feed.publish")
    /// Confined to `queue`.
    private var publisher: PostgresConnection?
    /// The publisher's server process, to skip our own notifications.
    private let publisherPID = Atomic<Int32>(0)
    private let stopped = Atomic<Bool>(false)
    private let logger: Logger

    public init(conninfo: String, logger: Logger) {
        self.conninfo = conninfo
        self.logger = logger
    }

    /// Sends `change` to the other instances (after the caller's commit), without waiting.
    public func publish(_ change: StoreChange) {
        queue.async { [self] in
            guard !stopped.load(ordering: .relaxed) else { return }
            do {
                if publisher?.isConnected != true {
                    publisher = try PostgresConnection(conninfo)
                    publisherPID.store(publisher!.backendPID, ordering: .relaxed)
                }
                try publisher!.query("SELECT pg_notify($1, $2) AS sent", [.text(Self.channel), .text(change.payload)])
            } catch {
                publisher = nil
                logger.warning("could not tell the other instances about a change: \(error)")
            }
        }
    }

    /// Starts the listening thread; `onRemoteChange` runs on it.
    public func start(onRemoteChange: @escaping @Sendable (StoreChange) -> Void) {
        NamedThread.start("change-feed") { [self] in
            var pause = 0.1
            var first = true
            while !stopped.load(ordering: .relaxed) {
                do {
                    let listener = try PostgresConnection(conninfo)
                    try listener.executeScript("LISTEN \(Self.channel)")
                    pause = 0.1
                    // Anything sent while we were not listening is lost: assume everything changed.
                    if !first { onRemoteChange(.everyone) }
                    first = false
                    while !stopped.load(ordering: .relaxed) {
                        for notification in try listener.waitForNotifications(timeoutMilliseconds: 500)
                        where notification.senderPID != publisherPID.load(ordering: .relaxed) {
                            if let change = StoreChange(payload: notification.payload) { onRemoteChange(change) }
                        }
                    }
                } catch {
                    if stopped.load(ordering: .relaxed) { return }
                    logger.warning("listening for other instances' changes: \(error); trying again in \(pause) s")
                    Thread.sleep(forTimeInterval: pause)
                    pause = min(5, pause * 2)
                }
            }
        }
    }

    /// Stops listening and publishing (the thread ends within half a second).
    public func stop() {
        stopped.store(true, ordering: .relaxed)
        queue.async { [self] in publisher = nil }
    }
}
