import Foundation
import Posix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary folder, started with
/// only a Unix socket in that folder (no TCP), one fresh database per test, stopped
/// (and the folder removed) when the test process exits.
///
/// PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user and
/// its commands run through `runuser`. `fsync=off`: a crash of the test machine loses nothing
/// the tests need, and it saves seconds. Nil when PostgreSQL's programs are not installed.
package final class PostgresCluster: @unchecked Sendable {
    package static let shared: PostgresCluster? = try? PostgresCluster()

    package let directory: String
    private let port: Int
    private let lock = NSLock()
    private var databases = 0

    /// The commands that start and stop this cluster's server.
    private let startCommand: String
    private let stopServerCommand: String

    /// A cluster of its own (a test that stops and starts PostgreSQL uses one, so it never
    /// disturbs the shared one); stopped and removed at exit or when released.
    package init() throws {
        guard let bin = Self.binaries() else { throw ProcessError("PostgreSQL's programs are not installed") }
        directory = NSTemporaryDirectory() + "snapshare-pg-" + UUID().uuidString.prefix(8)
        try FileSystem.makeFolders(directory, mode: 0o755)
        let asRoot = ThisProcess.userID == 0
        if asRoot { try Self.shell("chown postgres '\(directory)'") }
        let run = asRoot ? "runuser -u postgres -- " : ""
        // Only a Unix socket in this cluster's own folder: the port merely names it.
        port = 5432
        try Self.shell(
            "\(run)'\(bin)/initdb' -D '\(directory)/data' -A trust -U postgres -E UTF8 --no-sync >'\(directory)/initdb.log' 2>&1")
        startCommand = """
            \(run)'\(bin)/pg_ctl' -D '\(directory)/data' -l '\(directory)/server.log' -w -t 60 \
            -o "-p \(port) -k '\(directory)' -c listen_addresses='' -c fsync=off -c max_connections=200" start >/dev/null 2>&1
            """
        stopServerCommand = "\(run)'\(bin)/pg_ctl' -D '\(directory)/data' -m fast -w stop >/dev/null 2>&1"
        try Self.shell(startCommand)
        let cleanup = "\(run)'\(bin)/pg_ctl' -D '\(directory)/data' -m immediate stop >/dev/null 2>&1; rm -rf '\(directory)'"
        Self.cleanups.withLock { $0[directory] = cleanup }
        _ = Self.registerExitHandler
    }

    deinit {
        if let cleanup = Self.cleanups.withLock({ $0.removeValue(forKey: directory) }) { _ = ChildProcess.shell(cleanup) }
    }

    /// Stops the PostgreSQL server (as a restart or an outage would); its data stays.
    package func stopServer() throws { try Self.shell(stopServerCommand) }

    /// Starts it again after `stopServer()`, on the same port and data.
    package func startServer() throws { try Self.shell(startCommand) }

    /// Each cluster's stop-and-remove command, run at exit for those still there.
    private static let cleanups = Mutex<[String: String]>([:])
    private static let registerExitHandler: Void = {
        atexit { for command in PostgresCluster.cleanups.withLock({ Array($0.values) }) { _ = ChildProcess.shell(command) } }
    }()

    /// The connection string of a new, empty database, dropped by `drop`.
    package func makeDatabase() throws -> (conninfo: String, drop: @Sendable () -> Void) {
        let name = lock.withLock {
            databases += 1
            return "test_\(ThisProcess.id)_\(databases)"
        }
        try Self.shell("psql -X -q -h '\(directory)' -p \(port) -U postgres -d postgres -c 'CREATE DATABASE \(name)' >/dev/null")
        let conninfo = "host=\(directory) port=\(port) user=postgres dbname=\(name)"
        let directory = self.directory
        let port = self.port
        return (
            conninfo,
            {
                _ = try? Self.shell(
                    "psql -X -q -h '\(directory)' -p \(port) -U postgres -d postgres "
                        + "-c 'DROP DATABASE IF EXISTS \(name) WITH (FORCE)' >/dev/null 2>&1"
                )
            }
        )
    }

    private static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root))?.compactMap(Int.init).sorted() ?? []
        return versions.last.map { "\(root)/\($0)/bin" }.flatMap { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") ? $0 : nil }
    }

    @discardableResult
    private static func shell(_ command: String) throws -> Int32 {
        InheritedDescriptors.closeOnExec()
        let status = ChildProcess.shell(command)
        guard status == 0 else { throw ProcessError("failed (\(status)): \(command)") }
        return status
    }
}
