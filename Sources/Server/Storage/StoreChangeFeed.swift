import Foundation
import Posix
import PostgreSQL
import SQL
import Synchronization

/// What changed, as far as polling clients care: something every user may see (an account
/// deleted), something a class's members may see (a post, a staff change), or one user's own
/// listing (they opened a snap).
enum StoreChange: Sendable, Equatable {
    case everyone
    case inClass(Int64)
    case user(Int64)

    var payload: String {
        switch self {
        case .everyone: "*"
        case .inClass(let id): "c:\(id)"
        case .user(let id): "u:\(id)"
        }
    }

    init?(payload: String) {
        if payload == "*" {
            self = .everyone
            return
        }
        guard let id = Int64(payload.dropFirst(2)) else { return nil }
        switch payload.prefix(2) {
        case "c:": self = .inClass(id)
        case "u:": self = .user(id)
        default: return nil
        }
    }
}

/// Changes made by the other server instances sharing a PostgreSQL database, so that a Poll on
/// any instance sees a post, an open or an admin change made on another (issue 13).
///
/// Each change is sent with NOTIFY on one channel after its transaction committed, from a
/// connection of its own on a thread of its own (`notify`), so no request waits for it. A second
/// thread (`change-feed`) LISTENs on another connection and hands the others' changes to
/// `onRemoteChange` (its own are skipped by their sender's process id). After a lost connection
/// it reconnects with a growing pause and reports `.everyone` once, since notifications sent
/// meanwhile are gone.
final class PostgresChangeFeed: @unchecked Sendable {
    static let channel = "snapshare_changes"

    private let conninfo: String
    /// Changes waiting for the publishing thread.
    private let outgoing = WorkQueue<StoreChange>()
    /// The publisher's server process, to skip our own notifications.
    private let publisherPID = Atomic<Int32>(0)
    private let stopped = Atomic<Bool>(false)
    private let logger: Logger

    init(conninfo: String, logger: Logger) {
        self.conninfo = conninfo
        self.logger = logger
    }

    /// Sends `change` to the other instances (after the caller's commit), without waiting.
    func publish(_ change: StoreChange) {
        outgoing.submit(change)
    }

    /// The publishing thread: one NOTIFY per change, on a connection it makes again after a
    /// failure. Ends once `stop` has closed the queue and the queued changes are sent.
    private func publishQueuedChanges() {
        var publisher: PostgresConnection?
        outgoing.serve { change in
            guard !stopped.load(ordering: .relaxed) else { return .done }
            do {
                if publisher?.isConnected != true {
                    let connection = try PostgresConnection(conninfo)
                    publisherPID.store(connection.backendPID, ordering: .relaxed)
                    publisher = connection
                }
                try publisher?.execute("SELECT pg_notify(\(Self.channel), \(change.payload)) AS sent")
            } catch {
                publisher = nil
                logger.warning("could not tell the other instances about a change: \(error)")
            }
            return .done
        }
    }

    /// Starts the publishing thread and the listening one; `onRemoteChange` runs on the latter.
    /// Changes published before this wait for it.
    func start(onRemoteChange: @escaping @Sendable (StoreChange) -> Void) {
        NamedThread.start("notify") { [self] in publishQueuedChanges() }
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

    /// Stops listening and publishing (the listening thread ends within half a second, the
    /// publishing one at once).
    func stop() {
        stopped.store(true, ordering: .relaxed)
        outgoing.close()
    }
}
