import CSQLite

/// A small SQLite connection for the client's own files (one per Virtual Vacation).
///
/// It is deliberately smaller than the server's engine: one connection per process, used by
/// one thread. What it does keep: prepared statements with typed binds, `BEGIN IMMEDIATE`
/// transactions, a busy timeout so two client processes on one file wait for each other
/// instead of failing, WAL (readers never block the writer), `synchronous=FULL`, foreign keys,
/// and `PRAGMA user_version` / `application_id` for the schema and the file's identity.
final class ClientSQLite {
    /// How long a statement waits for another process's lock before giving up.
    static let busyTimeoutMilliseconds: Int32 = 20_000

    /// The file this connection opened.
    let path: String
    private let handle: OpaquePointer
    private var transactionDepth = 0

    /// Opens the file at `path`, creating it only when `create` is true (a missing file is
    /// then `SQLITE_CANTOPEN`). Nothing is written: see `useWriteAheadLog()`.
    init(path: String, create: Bool) throws(ClientSQLiteError) {
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if create { flags |= SQLITE_OPEN_CREATE }
        var connection: OpaquePointer?
        let resultCode = sqlite3_open_v2(path, &connection, flags, nil)
        guard resultCode == SQLITE_OK, let connection else {
            let error = ClientSQLiteError(resultCode: resultCode, connection: connection, sql: nil)
            // A failed open may still hand back a handle that must be closed.
            sqlite3_close_v2(connection)
            throw error
        }
        self.handle = connection
        self.path = path
        // From here a throw deinitializes self, which closes the handle.
        try check(sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds))
        // Defensive mode refuses SQL that could corrupt the file (writable_schema and friends).
        try check(snapshare_sqlite_db_config_flag(handle, SQLITE_DBCONFIG_DEFENSIVE, 1))
        try exec("PRAGMA foreign_keys = ON")
        // A file from elsewhere must not run functions from its schema (triggers, views).
        try exec("PRAGMA trusted_schema = OFF")
    }

    deinit { sqlite3_close_v2(handle) }

    /// Switches the file to WAL with full syncs: a COMMIT that returned survives a crash, and
    /// a reader in one process never blocks a writer in another. Only for files known to be
    /// ours, since it rewrites the header.
    func useWriteAheadLog() throws(ClientSQLiteError) {
        let mode = try queryFirst("PRAGMA journal_mode = WAL") { $0.string(at: 0) } ?? ""
        guard mode.lowercased() == "wal" else {
            throw ClientSQLiteError(code: SQLITE_ERROR, message: "could not switch \(path) to WAL (journal_mode is \(mode))")
        }
        try exec("PRAGMA synchronous = FULL")
    }

    private func check(_ resultCode: Int32, sql: String? = nil) throws(ClientSQLiteError) {
        guard resultCode == SQLITE_OK else { throw ClientSQLiteError(resultCode: resultCode, connection: handle, sql: sql) }
    }

    // MARK: Statements

    /// Runs SQL without parameters (schema, pragmas); several statements allowed, rows ignored.
    func exec(_ sql: String) throws(ClientSQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let resultCode = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard resultCode == SQLITE_OK else {
            var error = ClientSQLiteError(resultCode: resultCode, connection: handle, sql: sql)
            if let message { error.message = String(cString: message) }
            throw error
        }
    }

    /// Prepares exactly one statement.
    func prepare(_ sql: String) throws(ClientSQLiteError) -> ClientSQLiteStatement {
        var statement: OpaquePointer?
        // The tail points into the C string, so it is inspected while that string is alive.
        let (resultCode, trailing) = sql.withCString { text -> (Int32, Bool) in
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v3(handle, text, -1, 0, &statement, &tail)
            let rest = tail.map { String(cString: $0) } ?? ""
            return (resultCode, rest.contains { !$0.isWhitespace && $0 != ";" })
        }
        guard resultCode == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw ClientSQLiteError(resultCode: resultCode == SQLITE_OK ? SQLITE_MISUSE : resultCode, connection: handle, sql: sql)
        }
        // Anything after the first statement would be silently ignored: refuse it.
        guard !trailing else {
            sqlite3_finalize(statement)
            throw ClientSQLiteError(code: SQLITE_MISUSE, message: "expected exactly one SQL statement", sql: sql)
        }
        return ClientSQLiteStatement(handle: statement, sql: sql)
    }

    /// Runs one statement to completion; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [ClientSQLiteValue] = []) throws(ClientSQLiteError) -> Int {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
        return Int(sqlite3_changes64(handle))
    }

    /// Runs a query and maps every row.
    func query<T>(_ sql: String, _ values: [ClientSQLiteValue] = [],
                  row: (ClientSQLiteStatement) -> T) throws(ClientSQLiteError) -> [T] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [T] = []
        while try statement.step() { rows.append(row(statement)) }
        return rows
    }

    /// Runs a query and maps its first row, if any.
    func queryFirst<T>(_ sql: String, _ values: [ClientSQLiteValue] = [],
                       row: (ClientSQLiteStatement) -> T) throws(ClientSQLiteError) -> T? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? row(statement) : nil
    }

    /// The integer in the first column of the first row; 0 when there is no row.
    func scalar(_ sql: String, _ values: [ClientSQLiteValue] = []) throws(ClientSQLiteError) -> Int64 {
        try queryFirst(sql, values) { $0.int64(at: 0) } ?? 0
    }

    /// The rowid of the last INSERT on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    // MARK: Identity and schema version

    /// `PRAGMA user_version`: the schema version in the file header.
    func userVersion() throws(ClientSQLiteError) -> Int64 { try scalar("PRAGMA user_version") }

    /// Sets `PRAGMA user_version` (transactional like any write).
    func setUserVersion(_ version: Int64) throws(ClientSQLiteError) {
        // PRAGMA takes no parameters; the value is our own integer, not user input.
        try exec("PRAGMA user_version = \(version)")
    }

    /// `PRAGMA application_id`: which program's file this is.
    func applicationID() throws(ClientSQLiteError) -> Int32 { Int32(truncatingIfNeeded: try scalar("PRAGMA application_id")) }

    /// Sets `PRAGMA application_id`.
    func setApplicationID(_ id: Int32) throws(ClientSQLiteError) { try exec("PRAGMA application_id = \(id)") }

    // MARK: Transactions

    /// Runs `body` as one write transaction: `BEGIN IMMEDIATE` takes the write lock first (a
    /// deferred transaction that upgrades later can fail with SQLITE_BUSY without waiting,
    /// because another writer may have moved the snapshot), then COMMIT, or ROLLBACK when
    /// `body` throws. Nested calls join the outer transaction.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try withTransaction("BEGIN IMMEDIATE", body)
    }

    /// Runs `body` in a read transaction: every statement sees the same snapshot.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try withTransaction("BEGIN DEFERRED", body)
    }

    private func withTransaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        guard transactionDepth == 0 else {
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            return try body()
        }
        try exec(begin)
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            let result = try body()
            try exec("COMMIT")
            return result
        } catch {
            // SQLite may already have rolled back on its own (I/O errors); then there is nothing to undo.
            if sqlite3_get_autocommit(handle) == 0 { try? exec("ROLLBACK") }
            throw error
        }
    }
}
