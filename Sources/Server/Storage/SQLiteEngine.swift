import SQL
import SQLite

/// What is SQLite's own in the store: one file with one writer, whose `BEGIN IMMEDIATE` holds
/// every row and budget for its whole transaction (so the locks are nothing), names in
/// `COLLATE NOCASE` columns, the post in three statements (SQLite has no INSERT inside WITH),
/// and deleted bytes erased by `secure_delete` plus a WAL checkpoint.
final class SQLiteEngine: StorageEngine {
    /// The connection this store runs on.
    let database: SQLiteDatabase
    var connection: any SQLConnection { database }

    init(database: SQLiteDatabase) {
        self.database = database
    }

    /// The name columns are `COLLATE NOCASE`, which folds ASCII only: comparisons and `ORDER BY`
    /// on them fold already, and a bound value takes the column's collation.
    func foldedCase(_ expression: SQL) -> SQL { expression }

    /// SQLite's default collation, BINARY, is byte order.
    func bytewise(_ expression: SQL) -> SQL { expression }

    var databaseSize: SQL { "(SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size())" }

    func insertSnap(_ snap: NewSnap, in store: SQLStore) throws -> SnapListing {
        try database.transaction {
            guard let id = try database.queryFirst("\(store.snapInsert(snap)) RETURNING id", { $0.int64("id") }) else {
                throw StoreError(.internalError, "a snap's insert returned no id")
            }
            try database.execute("INSERT INTO snap_images (snap_id, bytes) VALUES (\(id), \(snap.image))")
            guard let listing = try database.queryFirst(store.listingByID(id, viewerID: snap.posterID), StoreRows.snapListing) else {
                throw StoreError(.internalError, "snap \(id) vanished right after its insert")
            }
            return listing
        }
    }

    func lockRow(table: String, keyColumn: String, key: Int64) throws {}

    func lockThrottleBudgets(_ keys: [ThrottleKey]) throws {}

    func takePurgeTurn() throws -> Bool { true }

    /// `secure_delete` has zeroed the deleted pages; the checkpoint right after the commit (at
    /// once outside a transaction) removes the older copies the WAL still holds. A failure there
    /// is not the delete's failure; the next one repeats the work.
    func bytesDeleted() {
        database.afterCommit(key: "checkpoint") { [weak self] in _ = try? self?.checkpoint() }
    }

    /// Copies the WAL into the database file and truncates the WAL to zero bytes.
    ///
    /// SQLite refuses to checkpoint inside a transaction, and a group-commit batch is always one.
    /// So inside a transaction the checkpoint is scheduled for right after the outermost COMMIT
    /// (still before the batch's completions run); a failure there cannot reach this caller, and
    /// the next compaction repeats the work. Outside a transaction it runs at once and reports a
    /// checkpoint that readers kept from finishing as `unavailable`.
    func compact() throws {
        guard !database.isReadOnly else { throw StoreError(.internalError, "compact needs the writer connection") }
        if database.isInTransaction { return bytesDeleted() }
        guard try checkpoint() else {
            throw StoreError(.unavailable, "the checkpoint could not finish because another connection "
                             + "was reading; deleted data may remain in the WAL until it is retried")
        }
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`; false when another connection kept it from finishing.
    private func checkpoint() throws -> Bool {
        // Columns: busy (1 if blocked), frames in the WAL, frames copied.
        let busy = try database.withBackgroundCheckpointsPaused {
            try database.queryFirst("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64("busy") } ?? 0
        }
        return busy == 0
    }

    /// VACUUM rewrites the file without its free pages (through the WAL, so readers go on), and
    /// the checkpoint after it moves them home and truncates the WAL.
    func reclaimSpace() throws {
        try database.exec("VACUUM")
        _ = try checkpoint()
    }

    /// AUTOINCREMENT keeps each table's high-water mark in `sqlite_sequence`.
    func idCounters(of tables: [String]) throws -> [String: Int64] {
        var counters: [String: Int64] = [:]
        for table in tables {
            counters[table] = try database.queryFirst("""
                SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = \(table)), 0),
                           (SELECT coalesce(max(id), 0) FROM \(raw: table))) AS counter
                """) { $0.int64("counter") } ?? 0
        }
        return counters
    }

    func raiseIdCounters(_ counters: [String: Int64]) throws {
        for (table, counter) in counters {
            try database.execute("UPDATE sqlite_sequence SET seq = max(seq, \(counter)) WHERE name = \(table)")
            try database.execute("""
                INSERT INTO sqlite_sequence (name, seq) SELECT \(table), \(counter)
                WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = \(table))
                """)
        }
    }
}

extension SQLStore {
    /// A store on the SQLite file at `path` (created and migrated unless `readOnly`; a
    /// read-only store only checks that the file is at this code's schema version). A writer
    /// may hand its WAL checkpoints to a thread of their own (`WALCheckpointer`).
    public static func sqlite(path: String, readOnly: Bool = false, checkpointsInBackground: Bool = false) throws -> SQLStore {
        let database = try translatingErrors("opening \(path)") {
            // The store holds password hashes and images: its files are the owner's alone.
            if !readOnly && !path.isEmpty && path != ":memory:" { try DatabaseFiles.makeOwnerOnly(path) }
            return try SQLiteDatabase(path: path, readOnly: readOnly, checkpointsInBackground: checkpointsInBackground)
        }
        return try sqlite(database)
    }

    /// A store on an open connection: migrates a writer's file, verifies a reader's.
    public static func sqlite(_ database: SQLiteDatabase) throws -> SQLStore {
        try translatingErrors("opening \(database.path)") {
            if database.isReadOnly {
                try Schema.verify(database)
            } else {
                try Schema.migrate(database)
            }
        }
        return SQLStore(engine: SQLiteEngine(database: database))
    }

    /// A store factory in the shape `StorageExecutor` takes; the writer checkpoints in the background.
    public static func openSQLite(path: String, readOnly: Bool) throws -> any SnapshareStore {
        try sqlite(path: path, readOnly: readOnly, checkpointsInBackground: !readOnly)
    }

    /// The SQLite connection under this store, if it is on SQLite (for tools and tests).
    public var sqliteDatabase: SQLiteDatabase? { (engine as? SQLiteEngine)?.database }
}
