import Client
import Foundation
import PostgreSQL
import SQL
import SQLite
import Server
import TLS
import Wire

/// A real server on 127.0.0.1 with a free port, real TLS, and a SQLite file in a temp folder,
/// or, when the tests run with `SNAPSHARE_TEST_DATABASE=postgresql`, a fresh database of its own
/// in the test run's throwaway PostgreSQL cluster (`PostgresCluster.shared`).
package final class TestServer: @unchecked Sendable {
    /// The storage engine the servers of this test run use.
    package enum Engine: String, Sendable {
        case sqlite, postgresql
    }

    /// From `SNAPSHARE_TEST_DATABASE` (`sqlite`, the default, or `postgresql`). Asking for
    /// PostgreSQL where its programs are missing stops the run: a silent SQLite run would pass
    /// for the PostgreSQL one.
    package static let engine: Engine = {
        let asked = ProcessInfo.processInfo.environment["SNAPSHARE_TEST_DATABASE"] ?? ""
        guard !asked.isEmpty else { return .sqlite }
        guard let engine = Engine(rawValue: asked) else {
            fatalError("SNAPSHARE_TEST_DATABASE=\(asked): use sqlite or postgresql")
        }
        if engine == .postgresql && PostgresCluster.shared == nil {
            fatalError("SNAPSHARE_TEST_DATABASE=postgresql, but PostgreSQL's programs are not installed (postgresql-15)")
        }
        return engine
    }()

    /// True when the servers store in SQLite: tests about the SQLite files themselves need it.
    package static var usesSQLite: Bool { engine == .sqlite }

    package let directory: TemporaryDirectory
    package private(set) var server: SnapshareServer
    package private(set) var port: Int
    package let configuration: ServerConfiguration

    package var caPath: String { directory.path + "/certs/ca.pem" }
    package var dataPath: String { configuration.dataDirectory }
    package var address: String { "127.0.0.1:\(port)" }
    /// Where an offline `snapshare-server` command finds this server's data: `--data`, plus
    /// `--database` when it stores in PostgreSQL.
    package var storeArguments: [String] { ["--data", dataPath] + (configuration.database.map { ["--database", $0] } ?? []) }

    private let log: LogCapture?
    private let clock: WallClock
    /// Drops this server's PostgreSQL database, when it has one of its own.
    private let dropDatabase: (@Sendable () -> Void)?

    /// `log`, when given, receives the server's log lines at info level and above.
    /// `clock` is the time the server sees (a `ManualClock`'s, to move it by hand).
    package init(
        quiet: Bool = true, log: LogCapture? = nil, clock: WallClock = .system,
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws {
        self.log = log
        self.clock = clock
        directory = TemporaryDirectory("snapshare-server")
        var config = ServerConfiguration()
        config.port = 0
        config.dataDirectory = directory.path + "/data"
        config.certificatesDirectory = directory.path + "/certs"
        config.logLevel = quiet ? .error : .info
        if log != nil { config.logLevel = .info }
        var drop: (@Sendable () -> Void)?
        if Self.engine == .postgresql, let cluster = PostgresCluster.shared {
            let (conninfo, dropIt) = try cluster.makeDatabase()
            config.database = conninfo
            drop = dropIt
        }
        dropDatabase = drop
        configure(&config)
        configuration = config
        do {
            server = try SnapshareServer(configuration: config, logger: Self.logger(config, log), clock: clock)
            port = try server.start()
        } catch {
            // deinit does not run for an object never fully made: drop the database here (a
            // server made but not started stops itself when released).
            drop?()
            throw error
        }
    }

    private static func logger(_ config: ServerConfiguration, _ log: LogCapture?) -> Logger {
        log?.logger(level: config.logLevel, format: config.logFormat) ?? Logger(level: config.logLevel, format: config.logFormat)
    }

    /// Stops the server (the data folder stays until this object goes away).
    package func stop() { server.stop() }

    /// Stops and starts again on the same port and data.
    package func restart() throws {
        server.stop()
        try startAgain()
    }

    /// Starts again, on the same port and data, a server that `stop()` stopped.
    package func startAgain() throws {
        var config = configuration
        config.port = port
        server = try SnapshareServer(configuration: config, logger: Self.logger(config, log), clock: clock)
        port = try server.start()
    }

    /// Waits until every storage write the server queued so far has committed: what it records
    /// after its reply (an audit entry) or starts on its own (`purgeExpired()`) is then in.
    package func waitForQueuedWrites(timeout: Double = 30) throws {
        let written = DispatchSemaphore(value: 0)
        server.afterQueuedWrites { written.signal() }
        guard written.wait(timeout: .now() + timeout) == .success else {
            throw NeverHappened(awaited: "the server's queued storage writes to commit", seconds: timeout)
        }
    }

    /// Runs the server's expiry purge and waits until it has committed.
    package func purgeExpired() throws {
        server.purgeExpired()
        try waitForQueuedWrites()
    }

    /// A raw connection that has said Hello offering `versions`, from `source` (another loopback
    /// address such as 127.0.0.2 stands in for another machine).
    package func connection(
        from source: String? = nil, timeout: Double = 10,
        versions: ClosedRange<UInt16> = ProtocolConstants.versions
    ) throws -> ServerConnection {
        let connection = try ServerConnection(
            host: "127.0.0.1", port: port, context: TLSContext.client(trustRootsFile: caPath),
            timeout: timeout, source: source)
        _ = try connection.hello(versions: versions)
        return connection
    }

    /// Client settings that verify this server with its CA.
    package func settings(host: String = "127.0.0.1") -> ConnectionSettings {
        ConnectionSettings(host: host, port: port, caFile: caPath)
    }

    /// A connected session with its own client state folder.
    package func session(home: TemporaryDirectory = TemporaryDirectory("snapshare-home")) throws -> (SnapshareSession, TemporaryDirectory) {
        let session = try SnapshareSession(settings: settings(), state: ClientState(directory: home.path)) { _ in }
        return (session, home)
    }

    /// Registers a user (into the class `classCode` opens, the server's own by default) and
    /// returns a logged-in session.
    package func registeredSession(
        _ username: String, password: String = "correct horse battery", classCode: String? = nil
    ) throws -> SnapshareSession {
        let (session, home) = try self.session()
        _ = try session.register(username: username, password: password, classCode: classCode ?? configuration.classCode ?? "")
        homes.append(home)
        return session
    }

    /// Creates an admin directly in the database, as `snapshare-server admin add` does.
    package func makeAdmin(_ username: String, password: String = "correct horse battery") throws -> SnapshareSession {
        try OfflineAdmin.addAdmin(dataDirectory: dataPath, username: username, password: password, database: configuration.database)
        let (session, home) = try self.session()
        _ = try session.login(username: username, password: password)
        homes.append(home)
        return session
    }

    /// Runs `snapshare-server ARGUMENTS` on this server's data (or database): an offline command
    /// such as `admin create-class`, as an operator would while the server runs.
    package func offline(_ arguments: String..., stdin: String? = nil) throws -> Subprocess.Result {
        try Subprocess.run("snapshare-server", arguments + storeArguments, stdin: stdin)
    }

    /// A store of its own on this server's database (another connection, as a second instance
    /// or an offline command would open), for seeding and checking behind the server's back.
    package func openStore() throws -> any SnapshareStore {
        if let database = configuration.database { return try SQLStore.postgres(conninfo: database) }
        return try SQLStore.sqlite(path: configuration.databasePath)
    }

    /// One count from this server's database, by a statement written for both engines.
    package func count(_ sql: SQL) throws -> Int64 {
        let connection: any SQLConnection =
            if let database = configuration.database {
                try PostgresConnection(database)
            } else {
                try SQLiteDatabase(path: configuration.databasePath, readOnly: true)
            }
        return try connection.queryFirst("SELECT (\(sql)) AS n") { $0.int64("n") } ?? 0
    }

    private var homes: [TemporaryDirectory] = []

    deinit {
        server.stop()
        dropDatabase?()
    }
}
