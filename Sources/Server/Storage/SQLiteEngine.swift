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
            guard
                let listing = try database.queryFirst(
                    "SELECT \(SQLStore.listingColumns(fixedState: .sent))\(SQLStore.listingFrom)WHERE s.id = \(id)", StoreRows.snapListing)
            else {
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
            throw StoreError(
                .unavailable,
                "the checkpoint could not finish because another connection "
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
    func idCounters(of identities: [SchemaCatalog.Identity]) throws -> [SchemaCatalog.Identity: Int64] {
        var counters: [SchemaCatalog.Identity: Int64] = [:]
        for identity in identities {
            counters[identity] =
                try database.queryFirst(
                    """
                    SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = \(identity.table)), 0),
                               (SELECT coalesce(max(\(raw: identity.column)), 0) FROM \(raw: identity.table))) AS counter
                    """
                ) { $0.int64("counter") } ?? 0
        }
        return counters
    }

    func raiseIdCounters(_ counters: [SchemaCatalog.Identity: Int64]) throws {
        for (identity, counter) in counters {
            let table = identity.table
            try database.execute("UPDATE sqlite_sequence SET seq = max(seq, \(counter)) WHERE name = \(table)")
            try database.execute(
                """
                INSERT INTO sqlite_sequence (name, seq) SELECT \(table), \(counter)
                WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = \(table))
                """)
        }
    }

    /// Every table of `sqlite_schema` but SQLite's own (`sqlite_sequence`), its columns from
    /// `pragma_table_xinfo` (generated columns left out: nothing can be written to them), its
    /// parents from `pragma_foreign_key_list`, and its AUTOINCREMENT column from SQLite's column
    /// metadata. A key column is never NULL here: an INTEGER PRIMARY KEY is the rowid, and every
    /// table is STRICT, whose key columns refuse NULL (a rowid table that is not would take one).
    func catalog() throws -> SchemaCatalog {
        let names = try database.query(
            """
            SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """
        ) { $0.string("name") }
        return SchemaCatalog(
            tables: try names.map { name in
                let columns = try database.query(
                    """
                    SELECT name, type, "notnull" AS not_null, pk FROM pragma_table_xinfo(\(name)) WHERE hidden = 0 ORDER BY cid
                    """
                ) { row in
                    (
                        column: SchemaCatalog.Column(
                            name: row.string("name"), kind: .init(sqliteType: row.string("type")),
                            nullable: row.int64("not_null") == 0 && row.int64("pk") == 0,
                            declaredType: row.string("type")),
                        key: row.int64("pk")
                    )
                }
                let key = columns.filter { $0.key > 0 }.sorted { $0.key < $1.key }.map(\.column.name)
                let identity = try key.count == 1 && database.isAutoincrement(table: name, column: key[0]) ? key[0] : nil
                return SchemaCatalog.Table(
                    name: name, columns: columns.map(\.column), primaryKey: key,
                    foreignKeys: try foreignKeys(of: name), identity: identity)
            })
    }

    /// A foreign key's columns, one row each in key order; a key naming no parent columns
    /// points to the parent's primary key.
    private func foreignKeys(of table: String) throws -> Set<SchemaCatalog.ForeignKey> {
        let links = try database.query(
            """
            SELECT id, "table" AS parent, "from" AS from_column, "to" AS to_column FROM pragma_foreign_key_list(\(table)) ORDER BY id, seq
            """
        ) { row in
            (
                id: row.int64("id"), parent: row.string("parent"), column: row.string("from_column"),
                parentColumn: row.isNull("to_column") ? nil : row.string("to_column")
            )
        }
        return Set(
            try Dictionary(grouping: links, by: \.id).values.map { links in
                let parent = links[0].parent
                let parentKey = try database.query(
                    """
                    SELECT name FROM pragma_table_info(\(parent)) WHERE pk > 0 ORDER BY pk
                    """
                ) { $0.string("name") }
                let named = links.compactMap(\.parentColumn)
                return SchemaCatalog.ForeignKey(
                    columns: links.map(\.column), parent: parent,
                    parentColumns: named.count == links.count ? named : parentKey)
            })
    }
}

extension SQLStore {
    /// A store on the SQLite file at `path` (created and migrated unless `readOnly`; a
    /// read-only store only checks that the file is at this code's schema version). A writer
    /// may hand its WAL checkpoints to a thread of their own (`WALCheckpointer`).
    package static func sqlite(path: String, readOnly: Bool = false, checkpointsInBackground: Bool = false) throws -> SQLStore {
        let database = try translatingErrors("opening \(path)") {
            // The store holds password hashes and images: its files are the owner's alone.
            if !readOnly && !path.isEmpty && path != ":memory:" { try DatabaseFiles.makeOwnerOnly(path) }
            return try SQLiteDatabase(path: path, readOnly: readOnly, checkpointsInBackground: checkpointsInBackground)
        }
        return try sqlite(database)
    }

    /// A store on an open connection: migrates a writer's file, verifies a reader's.
    package static func sqlite(_ database: SQLiteDatabase) throws -> SQLStore {
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
    static func openSQLite(path: String, readOnly: Bool) throws -> any SnapshareStore {
        try sqlite(path: path, readOnly: readOnly, checkpointsInBackground: !readOnly)
    }

    /// The SQLite connection under this store, if it is on SQLite (for tools and tests).
    var sqliteDatabase: SQLiteDatabase? { (engine as? SQLiteEngine)?.database }
}
