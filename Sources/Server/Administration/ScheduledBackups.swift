import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// `--backup-dir DIR --backup-every 6h --backup-keep 28`: a backup of the running server every
/// interval, into files named by the time they were taken (`snapshare-2026-12-02T14-30-00.000Z.backup`,
/// so names sort as times), the oldest removed beyond `keep`. The first comes at start when the
/// newest in the folder is older than one interval (a restart does not pile them up). A failure is
/// logged and counted (`snapshare_backup_failures_total`); the next interval tries again.
final class ScheduledBackups: Sendable {
    struct Policy: Sendable {
        var directory: String
        var intervalMilliseconds: Int64
        var keep: Int
    }

    let policy: Policy
    private let configuration: ServerConfiguration
    private let logger: Logger
    private let metrics: ServerMetrics

    init(policy: Policy, configuration: ServerConfiguration, logger: Logger, metrics: ServerMetrics) {
        self.policy = policy
        self.configuration = configuration
        self.logger = logger
        self.metrics = metrics
    }

    /// The thread that takes them, until stopped.
    func start() -> PeriodicTask {
        let age = newestBackupAge()
        let first = age.map { max(0, policy.intervalMilliseconds - $0) } ?? 0
        return PeriodicTask(name: "backup", intervalMilliseconds: policy.intervalMilliseconds, firstAfterMilliseconds: first) { [self] in
            runOnce()
        }
    }

    /// Takes one backup and removes the oldest beyond `keep`.
    @discardableResult
    func runOnce() -> Result<Backup.Written, any Error> {
        let result = Result { () throws -> Backup.Written in
            do throws(SystemError) { try FileSystem.makeFolders(policy.directory, mode: 0o700) } catch {
                throw ConfigurationError("cannot make the backup folder \(error.path ?? policy.directory): \(error.reason)")
            }
            return try Backup.write(from: Backup.source(for: configuration), to: policy.directory + "/" + Self.name(at: Date()))
        }
        switch result {
        case .success(let written):
            let snaps = written.rows.first { $0.table == "snaps" }?.rows ?? 0
            logger.info("backup: wrote \(written.path) (\(written.bytes) bytes, \(snaps) snaps)")
            metrics.backupFinished(at: Date())
            prune()
        case .failure(let error):
            logger.error("backup into \(policy.directory) failed: \(error); the next one is in \(policy.intervalMilliseconds / 1000) s")
            metrics.backupFailed()
        }
        return result
    }

    /// `snapshare-<UTC time with milliseconds>.backup`, colons made dashes for every file system.
    static func name(at date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return "snapshare-" + formatter.string(from: date).replacingOccurrences(of: ":", with: "-") + ".backup"
    }

    /// The scheduled backups in the folder, oldest first.
    func backups() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: policy.directory)) ?? []
        return names.filter { $0.hasPrefix("snapshare-") && $0.hasSuffix(".backup") }.sorted()
    }

    private func prune() {
        for name in backups().dropLast(policy.keep) {
            do {
                try FileSystem.remove(policy.directory + "/" + name)
                logger.info("backup: removed the oldest, \(name) (keeping \(policy.keep))")
            } catch {
                logger.error("backup: cannot remove \(name): \(error.reason)")
            }
        }
    }

    /// How long ago the newest scheduled backup was written, in milliseconds; nil when there is none.
    private func newestBackupAge() -> Int64? {
        guard let newest = backups().last,
            let modified = try? FileManager.default.attributesOfItem(atPath: policy.directory + "/" + newest)[.modificationDate] as? Date
        else { return nil }
        return Int64(Date().timeIntervalSince(modified) * 1000)
    }
}
