import Foundation
import Posix
import Synchronization
import Wire

extension ServerMetrics {
    /// Everything `GET /metrics` shows, as one Prometheus text page: these counters, plus the
    /// store's queues and commit times and the album downloads, read as they are at `now`.
    func exposition(storage: StorageExecutor, albums: Albums, now: Date = Date()) -> String {
        var page = PrometheusText()
        let tallies = self.tallies.withLock { $0 }
        func load(_ atomic: borrowing Atomic<Int64>) -> Double { Double(atomic.load(ordering: .relaxed)) }

        page.family(
            "snapshare_uptime_seconds", .gauge, help: "Seconds since the server started.",
            Double(MonotonicClock.nanoseconds() &- startedMonotonic) / 1e9)
        let expiry = certificateNotAfter.load(ordering: .relaxed)
        page.family(
            "snapshare_certificate_expiry_seconds", .gauge,
            help: "Seconds until the served TLS certificate expires (negative once it has).",
            expiry == Int64.min ? [] : [([], Double(expiry) - now.timeIntervalSince1970.rounded(.down))])

        // Connections.
        page.family(
            "snapshare_connections", .gauge, help: "Open connections by state, as the event loop counted them last (every 250 ms).",
            [
                ([("state", "handshaking")], load(handshaking)),
                ([("state", "anonymous")], load(anonymous)),
                ([("state", "logged_in")], load(loggedIn)),
            ])
        page.family("snapshare_connections_accepted_total", .counter, help: "Connections accepted.", Double(acceptedConnections))
        page.family(
            "snapshare_connections_refused_total", .counter,
            help: "Connections closed at accept because their address was at its cap.", Double(refusedConnections))
        page.family(
            "snapshare_connections_shed_total", .counter,
            help: "Connections not logged in, closed to make room when the server was full.", Double(shedConnections))
        page.family(
            "snapshare_socket_send_waits_total", .counter,
            help: "Times a connection's socket was full and its output waited for the peer.", Double(socketSendWaits))

        // Requests.
        let results = tallies.requests.sorted { ($0.key.type, $0.key.result.label) < ($1.key.type, $1.key.result.label) }
        page.family(
            "snapshare_requests_total", .counter, help: "Requests answered, by message type and result (ok or the error code).",
            results.map { ([("type", Self.typeLabel($0.key.type)), ("result", $0.key.result.label)], Double($0.value)) })
        page.histograms(
            "snapshare_request_duration_seconds", help: "Time from a request's dispatch to its reply, by message type.",
            tallies.latencies.sorted { $0.key < $1.key }.map { ([("type", Self.typeLabel($0.key))], $0.value) })
        func opens(_ result: RequestResult) -> Double {
            Double(tallies.requests[MetricTallies.RequestKey(type: MessageType.openSnap.rawValue, result: result)] ?? 0)
        }
        page.family(
            "snapshare_snap_views_total", .counter, help: "OpenSnap answers: a view claimed, or refused as already viewed.",
            [
                ([("result", "claimed")], opens(.ok)),
                ([("result", "already_viewed")], opens(.error(.alreadyViewed))),
            ])
        page.family("snapshare_snaps_posted_total", .counter, help: "Snaps stored.", load(snapsPosted))
        page.family("snapshare_snap_stored_bytes_total", .counter, help: "Image bytes of the snaps stored.", load(snapBytesStored))
        page.family(
            "snapshare_throttle_refusals_total", .counter, help: "Password and class-code attempts refused by a throttle, by throttle.",
            tallies.throttleRefusals.sorted { $0.key < $1.key }.map { ([("throttle", $0.key)], Double($0.value)) })

        // Storage.
        page.family(
            "snapshare_store_queue_depth", .gauge, help: "Storage jobs waiting, by queue.",
            [
                ([("queue", "write")], Double(storage.queuedWrites)),
                ([("queue", "read")], Double(storage.queuedReads)),
            ])
        page.histograms(
            "snapshare_store_commit_duration_seconds", help: "Time of one group-commit batch, BEGIN to COMMIT.",
            [([], storage.commitDurations.snapshot)])
        page.family("snapshare_purges_total", .counter, help: "Expiry purges run.", load(purges))
        page.family("snapshare_purge_failures_total", .counter, help: "Expiry purges that failed.", load(purgeFailures))
        page.family("snapshare_purged_images_total", .counter, help: "Images of expired snaps erased.", load(purgedImages))
        page.family("snapshare_backups_total", .counter, help: "Scheduled backups written (--backup-dir).", load(backups))
        page.family("snapshare_backup_failures_total", .counter, help: "Scheduled backups that failed.", load(backupFailures))
        page.family(
            "snapshare_last_backup_timestamp_seconds", .gauge, help: "When the last scheduled backup was written (0: none yet).",
            load(lastBackupAt))

        // Albums.
        page.family(
            "snapshare_album_downloads_running", .gauge, help: "Album downloads this instance runs now.", Double(albums.downloadsRunning))
        page.family("snapshare_album_downloads_started_total", .counter, help: "Album downloads started.", load(albums.downloadsStarted))
        page.family(
            "snapshare_album_downloads_finished_total", .counter,
            help: "Album downloads that ran to their end (not cancelled or replaced).", load(albums.downloadsFinished))
        return page.text
    }

    /// A request type's `type` label: its name in the protocol's MessageType table.
    private static func typeLabel(_ rawValue: UInt16) -> String {
        MessageType(rawValue: rawValue).map { "\($0.name)" } ?? "other"
    }
}
