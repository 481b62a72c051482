import PostgreSQL

/// The PostgreSQL engine, for several server instances sharing one database (issue 13).
///
/// One store is one libpq connection, used by one thread at a time, like `SQLiteStore`. It
/// implements every store protocol, and the same contract suites hold for both engines
/// (Tests/ServerTests/StoreContract), the racing view claim included.
public final class PostgresStore {
    let connection: PostgresConnection

    /// Connects with a libpq connection string or URI. A writer brings the schema up to date; a
    /// reader (`readOnly`) leaves that to the writer and runs every transaction read-only on one
    /// snapshot (repeatable read), as a SQLite reader does.
    public init(conninfo: String, readOnly: Bool = false) throws {
        let setup = readOnly ? "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY" : nil
        do { connection = try PostgresConnection(conninfo, sessionSetup: setup) } catch {
            throw StoreError(.unavailable, error.message)
        }
        if !readOnly { try migrate() }
    }

    /// Applies the schema versions this database lacks, under an advisory lock so that
    /// instances starting together apply each once; refuses a database newer than this binary.
    private func migrate() throws {
        try translatingErrors("migrating the schema") {
            // The key is arbitrary but fixed: "snapshare" in the lock space of this database.
            try connection.query("SELECT pg_advisory_lock(7363616870) AS locked")
            defer { _ = try? connection.query("SELECT pg_advisory_unlock(7363616870) AS unlocked") }
            try connection.executeScript("""
                CREATE TABLE IF NOT EXISTS schema_versions (
                    version bigint PRIMARY KEY, summary text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            let current = try connection.query("SELECT coalesce(max(version), 0) AS version FROM schema_versions")[0].int64("version")
            guard current <= PostgresSchema.latest else {
                throw StoreError(.corrupt, "the database is at schema version \(current), newer than this server's "
                                 + "\(PostgresSchema.latest): upgrade snapshare-server")
            }
            for (version, summary, sql) in PostgresSchema.versions where version > current {
                try connection.transaction {
                    try connection.executeScript(sql)
                    try connection.execute("INSERT INTO schema_versions (version, summary) VALUES ($1, $2)",
                                           [.integer(version), .text(summary)])
                }
            }
        }
    }

    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try translatingErrors("transaction") { try connection.transaction(body) }
    }

    // MARK: Error translation

    /// Runs `body`, turning any `PostgresError` into the matching `StoreError`. A connection the
    /// server dropped (PostgreSQL restarted) is made again first; inside a transaction (a write
    /// batch) `reconnect` refuses, so every call fails as `.unavailable` until the batch has
    /// rolled back and no job of it commits on a new connection behind the others' backs. While
    /// PostgreSQL cannot be reached every call fails, and the next one tries again.
    @discardableResult
    func translatingErrors<T>(_ context: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            if !connection.isConnected { try connection.reconnect() }
            return try body()
        } catch let error as PostgresError {
            let kind: StoreError.Kind = switch error.sqlState {
            case "23505": .conflict
            case "23503": .notFound
            case _ where error.isConnectionFailure: .unavailable
            case "XX001", "XX002": .corrupt
            default: .internalError
            }
            throw StoreError(kind, "\(context()): \(error.message)", isTransient: error.isTransactionConflict)
        }
    }
}
