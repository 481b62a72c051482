import CSQLite
import SQL

/// One SQLite connection, used by one thread at a time (it is opened with `SQLITE_OPEN_NOMUTEX`):
/// the one SQLite layer of the server's store and the client's vacation files.
///
/// A writer connection switches its file to WAL with `synchronous=FULL`, so a transaction whose
/// COMMIT has returned survives `kill -9` and power loss, and `secure_delete` zeroes deleted
/// content (image pages) in the file. A connection to a file not yet known to be ours opens
/// without touching its header (`configuresJournal: false`) and switches later with
/// `useWriteAheadLog()`. A read-only connection sees the last committed state and cannot change
/// anything. Statements are prepared once per connection and cached by their SQL text; rows
/// are read by column name (`row.int64("id")`).
public final class SQLiteDatabase {
    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    public static let defaultBusyTimeoutMilliseconds: Int32 = 5_000
    /// The size a WAL file is cut back to after a checkpoint started it over.
    public static let walSizeLimit = 64 * 1024 * 1024
    /// The page size of newly created database files (a power of two from 512 to 65536).
    public static let newFilePageSize = 16_384

    /// The file this connection opened.
    public let path: String
    /// True for a connection opened with `SQLITE_OPEN_READONLY`.
    public let isReadOnly: Bool

    private let handle: OpaquePointer
    private var statementCache: [String: SQLiteStatement] = [:]
    /// How many statements this connection holds prepared (one per distinct SQL text).
    public var preparedStatementCount: Int { statementCache.count }
    /// Copies the WAL into the file on its own thread, when asked for at open (see `WALCheckpointer`).
    private var checkpointer: WALCheckpointer?
    /// 0 outside a transaction, 1 inside the outermost `transaction`, +1 per savepoint.
    private var transactionDepth = 0
    /// Work to run once the outermost transaction has committed (see `afterCommit`).
    private var afterCommitActions: [(key: String?, action: () -> Void)] = []

    /// Opens the database at `path` and configures the connection. A writer creates a missing
    /// file unless `create` is false (then `SQLITE_CANTOPEN`), and with `configuresJournal`
    /// switches it to WAL with full syncs and secure delete at once.
    public init(
        path: String, readOnly: Bool = false, create: Bool = true, configuresJournal: Bool = true,
        busyTimeoutMilliseconds: Int32 = SQLiteDatabase.defaultBusyTimeoutMilliseconds,
        newFilePageSize: Int = SQLiteDatabase.newFilePageSize, checkpointsInBackground: Bool = false
    ) throws {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        var connection: OpaquePointer?
        let resultCode = sqlite3_open_v2(path, &connection, flags, nil)
        guard resultCode == SQLITE_OK, let connection else {
            let error = SQLiteError(resultCode: resultCode, connection: connection, sql: nil)
            // sqlite3_open_v2 hands back a handle even on failure; it must still be closed.
            sqlite3_close_v2(connection)
            throw error
        }
        self.handle = connection
        self.path = path
        self.isReadOnly = readOnly
        // From here on a throw deinitializes self, which closes the handle once.
        try configure(
            busyTimeoutMilliseconds: busyTimeoutMilliseconds, newFilePageSize: newFilePageSize,
            configuresJournal: configuresJournal)
        if checkpointsInBackground && !readOnly {
            let checkpointer = try WALCheckpointer(path: path)
            self.checkpointer = checkpointer
            // Replaces SQLite's automatic checkpoints on this connection (they use the same hook).
            sqlite3_wal_hook(handle, WALCheckpointer.walHook, Unmanaged.passUnretained(checkpointer).toOpaque())
        }
    }

    deinit {
        if let checkpointer {
            sqlite3_wal_hook(handle, nil, nil)
            checkpointer.stop()
        }
        // Finalize cached statements first so the close is immediate rather than deferred.
        statementCache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs `body` while no background checkpoint runs (for a checkpoint of one's own, which
    /// would otherwise fail busy); just runs it without background checkpoints.
    public func withBackgroundCheckpointsPaused<T>(_ body: () throws -> T) rethrows -> T {
        guard let checkpointer else { return try body() }
        return try checkpointer.paused(body)
    }

    private func configure(busyTimeoutMilliseconds: Int32, newFilePageSize: Int, configuresJournal: Bool) throws {
        try check(sqlite3_busy_timeout(handle, busyTimeoutMilliseconds))
        // Defensive mode forbids writable_schema and other ways of corrupting the file with SQL;
        // double-quoted string literals are a classic typo trap.
        try check(snapshare_sqlite_db_config_flag(handle, SQLITE_DBCONFIG_DEFENSIVE, 1))
        try check(snapshare_sqlite_db_config_flag(handle, SQLITE_DBCONFIG_DQS_DML, 0))
        try check(snapshare_sqlite_db_config_flag(handle, SQLITE_DBCONFIG_DQS_DDL, 0))
        try exec("PRAGMA foreign_keys = ON")
        try exec("PRAGMA trusted_schema = OFF")
        guard !isReadOnly else {
            // Readers map the file instead of copying every page through pread: photo and list
            // reads of 100 KB blobs cost about a quarter less CPU (docs/benchmarks.md). Pages in
            // the WAL are still read normally, so readers always see committed data.
            _ = try queryFirst("PRAGMA mmap_size = 268435456") { $0.int64(at: 0) }
            return
        }
        guard configuresJournal else { return }
        // A new file gets 16 KiB pages (fixed once the first table exists): a 100 KB image is then
        // 7 overflow pages instead of 25, so each write and checkpoint makes about a quarter of
        // the system calls and page lookups. Existing files keep the size they were made with.
        if try scalar("PRAGMA page_count") == 0 {
            try exec("PRAGMA page_size = \(newFilePageSize)")
        }
        try useWriteAheadLog()
        try exec("PRAGMA secure_delete = ON")
        // Once a checkpoint has started the WAL over, its file is cut back to this size, so a
        // burst of posts does not leave a WAL of gigabytes behind.
        _ = try queryFirst("PRAGMA journal_size_limit = \(Self.walSizeLimit)") { $0.int64(at: 0) }
    }

    /// Switches the file to WAL with full syncs: a COMMIT that returned survives a crash, and a
    /// reader in one process never blocks a writer in another. Rewrites the header, so only for
    /// files known to be ours.
    public func useWriteAheadLog() throws {
        let mode = try queryFirst("PRAGMA journal_mode = WAL") { $0.string(at: 0) } ?? ""
        let isMemory = path.isEmpty || path == ":memory:"
        guard mode.lowercased() == "wal" || isMemory else {
            throw SQLiteError(code: SQLITE_ERROR, message: "could not switch \(path) to WAL (journal_mode is \(mode))")
        }
        // FULL: in WAL mode this fsyncs the WAL on every COMMIT, so a commit that returned is durable.
        try exec("PRAGMA synchronous = FULL")
    }

    private func check(_ resultCode: Int32, sql: String? = nil) throws {
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(resultCode: resultCode, connection: handle, sql: sql)
        }
    }

    // MARK: Blobs

    /// Runs `body` with `table.column` of row `rowID`, to be read straight from the database
    /// pages if `body` asks for the bytes (see `SQLiteBlob`). Call it inside the transaction that
    /// found the row; reading a row that does not exist throws.
    func withStoredBytes<R>(table: String, column: String, rowID: Int64, _ body: (any StoredBytes) throws -> R) throws -> R {
        try body(SQLiteBlob(connection: handle, table: table, column: column, rowID: rowID))
    }

    // MARK: Statements

    /// Runs one or more SQL statements that take no parameters (schema, pragmas), ignoring rows.
    public func exec(_ sql: String) throws {
        if SQLTrace.isOn { SQLTrace.record(engine: "sqlite", sql: sql, values: []) }
        var message: UnsafeMutablePointer<CChar>?
        let resultCode = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard resultCode == SQLITE_OK else {
            var error = SQLiteError(resultCode: resultCode, connection: handle, sql: sql)
            if let message { error.message = String(cString: message) }
            throw error
        }
    }

    private func makeStatement(_ sql: String, persistent: Bool) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        var trailingGarbage = false
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let resultCode = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let resultCode = sqlite3_prepare_v3(handle, text, -1, flags, &statement, &tail)
            // Only one statement per prepare: anything after it other than blanks and ';' would
            // otherwise be silently ignored.
            var cursor = tail
            while let current = cursor, current.pointee != 0 {
                let byte = UInt8(bitPattern: current.pointee)
                if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\t")
                    && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: ";")
                {
                    trailingGarbage = true
                    break
                }
                cursor = current + 1
            }
            return resultCode
        }
        guard resultCode == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw SQLiteError(resultCode: resultCode, connection: handle, sql: sql)
        }
        guard let statement, !trailingGarbage else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, message: "expected exactly one SQL statement", sql: sql)
        }
        return SQLiteStatement(handle: statement, sql: sql)
    }

    /// Runs `body` with the cached prepared statement for `sql`, then resets it and clears its
    /// bindings (which also releases the read lock a half-read query would hold).
    ///
    /// If the same SQL is already in use further up the stack, a fresh uncached statement is used,
    /// so nested use can never clobber an outer cursor.
    public func withStatement<T>(_ sql: String, _ body: (SQLiteStatement) throws -> T) throws -> T {
        let statement: SQLiteStatement
        if let cached = statementCache[sql] {
            statement = cached.isCheckedOut ? try makeStatement(sql, persistent: false) : cached
        } else {
            statement = try makeStatement(sql, persistent: true)
            statementCache[sql] = statement
        }
        statement.isCheckedOut = true
        defer {
            statement.reset()
            statement.isCheckedOut = false
        }
        return try body(statement)
    }

    // The statements below take their text and values apart: they are this module's own, for
    // pragmas and transaction control. Everything else runs `SQL` (SQLiteDatabase+SQL), so a value
    // can never be spliced into a statement's text by accident.

    /// Runs one statement to completion and returns how many rows it changed (not counting cascades).
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
        try withStatement(sql) { statement in
            try statement.bind(values)
            while try statement.step() {}
            return Int(sqlite3_changes64(handle))
        }
    }

    /// Runs a query and maps every row.
    func query<T>(
        _ sql: String, _ values: [SQLValue] = [],
        row: (SQLiteStatement) throws -> T
    ) throws -> [T] {
        try withStatement(sql) { statement in
            try statement.bind(values)
            var rows: [T] = []
            while try statement.step() {
                rows.append(try row(statement))
            }
            return rows
        }
    }

    /// Runs a query and maps its first row, if any.
    func queryFirst<T>(
        _ sql: String, _ values: [SQLValue] = [],
        row: (SQLiteStatement) throws -> T
    ) throws -> T? {
        try withStatement(sql) { statement in
            try statement.bind(values)
            return try statement.step() ? try row(statement) : nil
        }
    }

    /// The integer in the first column of the first row (`SELECT count(*) ...`); 0 when no row.
    func scalar(_ sql: String, _ values: [SQLValue] = []) throws -> Int64 {
        try queryFirst(sql, values) { $0.int64(at: 0) } ?? 0
    }

    /// The rowid of the last successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// True while SQLite has a transaction open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Schema version

    /// `PRAGMA user_version`: the schema version stored in the file header.
    public func userVersion() throws -> Int64 {
        try scalar("PRAGMA user_version")
    }

    /// Sets `PRAGMA user_version`; transactional like any other write.
    public func setUserVersion(_ version: Int64) throws {
        // PRAGMA takes no bound parameters; the value is an integer we produce, not user input.
        try exec("PRAGMA user_version = \(version)")
    }

    /// Whether `table.column` is an `INTEGER PRIMARY KEY AUTOINCREMENT`, whose high-water mark
    /// SQLite keeps in `sqlite_sequence` (ids never handed out twice). No pragma says it, and
    /// `sqlite_sequence` has a row only after the first insert; SQLite's own column metadata does.
    public func isAutoincrement(table: String, column: String) throws -> Bool {
        var autoincrement: Int32 = 0
        try check(sqlite3_table_column_metadata(handle, "main", table, column, nil, nil, nil, nil, &autoincrement))
        return autoincrement != 0
    }

    /// `PRAGMA application_id`: which program's file this is (0 for none).
    public func applicationID() throws -> Int32 { Int32(truncatingIfNeeded: try scalar("PRAGMA application_id")) }

    /// Sets `PRAGMA application_id`.
    public func setApplicationID(_ id: Int32) throws { try exec("PRAGMA application_id = \(id)") }

    // MARK: Transactions

    /// Runs `body` atomically. The outermost call is `BEGIN IMMEDIATE ... COMMIT` on a writer
    /// (it takes the write lock up front, so it cannot fail halfway with a busy upgrade) and a
    /// deferred `BEGIN` on a reader (one consistent snapshot for every statement in `body`).
    /// Nested calls are savepoints: a throwing body rolls back only its own level.
    /// The control statements come from the statement cache: every request runs several, and
    /// parsing each one anew cost more than running it.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(writing: !isReadOnly, body)
    }

    /// A transaction that only reads, on any connection: outermost it is a deferred `BEGIN`, so
    /// it takes no write lock and sees one snapshot; nested it is a savepoint like any other.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(writing: false, body)
    }

    private func transaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        if transactionDepth == 0 {
            return try outermostTransaction(writing: writing, body)
        }
        // SQLite rolls the whole transaction back on some errors (SQLITE_FULL, IOERR, NOMEM).
        // Without this check the rest of the batch would silently run in autocommit mode.
        guard isInTransaction else {
            throw SQLiteError(code: SQLITE_ABORT, message: "the enclosing transaction was already rolled back")
        }
        let name = "snapshare_level_\(transactionDepth)"
        try run("SAVEPOINT \(name)")
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        let actionsBefore = afterCommitActions.count
        do {
            let result = try body()
            try run("RELEASE \(name)")
            return result
        } catch {
            afterCommitActions.removeSubrange(min(actionsBefore, afterCommitActions.count)...)
            if isInTransaction {
                _ = try? run("ROLLBACK TO \(name)")
                _ = try? run("RELEASE \(name)")
            }
            throw error
        }
    }

    private func outermostTransaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        try run(writing ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        transactionDepth = 1
        let result: T
        do {
            result = try body()
            guard isInTransaction else {
                throw SQLiteError(code: SQLITE_ABORT, message: "the transaction was rolled back by SQLite after an error")
            }
            try run("COMMIT")
        } catch {
            transactionDepth = 0
            afterCommitActions.removeAll()
            if isInTransaction { _ = try? run("ROLLBACK") }
            throw error
        }
        transactionDepth = 0
        let actions = afterCommitActions
        afterCommitActions.removeAll()
        for pending in actions {
            pending.action()
        }
        return result
    }

    /// Runs `action` right after the outermost transaction commits, before `transaction` returns
    /// (at once when no transaction is open). Dropped if its transaction or savepoint rolls back.
    /// An action whose `key` is already pending is not added twice. For work SQLite refuses
    /// inside a transaction, such as a WAL checkpoint.
    public func afterCommit(key: String? = nil, _ action: @escaping () -> Void) {
        if transactionDepth == 0 && !isInTransaction {
            action()
        } else if key == nil || !afterCommitActions.contains(where: { $0.key == key }) {
            afterCommitActions.append((key, action))
        }
    }
}
