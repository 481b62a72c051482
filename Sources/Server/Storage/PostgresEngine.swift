import PostgreSQL
import SQL

/// What is PostgreSQL's own in the store, for several server instances sharing one database:
/// names folded by `ascii_lower` (the schema's function, as SQLite's NOCASE folds), byte order
/// by `COLLATE "C"`, the post in one statement, and locks that every instance honours (row
/// locks for caps, advisory locks for throttle budgets and the purge's turn). PostgreSQL
/// reclaims deleted rows itself (autovacuum); nothing waits in a write-ahead log to be erased
/// the way SQLite's WAL does.
///
/// A writer brings the schema up to date at open; a reader leaves that to the writer and runs
/// every transaction read-only on one snapshot (repeatable read), as a SQLite reader does.
final class PostgresEngine: StorageEngine {
    /// The libpq connection this store runs on.
    let postgres: PostgresConnection
    var connection: any SQLConnection { postgres }

    /// Lock keys, arbitrary but fixed ("snapshare" and one more, in this database's lock space).
    static let migrationLock: Int64 = 7_363_616_870
    static let purgeLock: Int64 = 7_363_616_871

    init(conninfo: String, readOnly: Bool) throws {
        let setup = readOnly ? "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY" : nil
        do { postgres = try PostgresConnection(conninfo, sessionSetup: setup) } catch {
            throw StoreError(.unavailable, error.message)
        }
        if !readOnly { try SQLStore.translatingErrors("migrating the schema") { try PostgresSchema.migrate(postgres) } }
    }

    func foldedCase(_ expression: SQL) -> SQL { "ascii_lower(\(expression))" }

    /// The byte order SQLite sorts in, whatever the database's locale.
    func bytewise(_ expression: SQL) -> SQL { "\(expression) COLLATE \"C\"" }

    var databaseSize: SQL { "pg_database_size(current_database())" }

    /// One statement, one round trip: the snap, its image, and the snap as its poster sees it.
    /// Measured with scripts/cluster-bench.sh against three statements before it
    /// (docs/benchmarks.md).
    func insertSnap(_ snap: NewSnap, in store: SQLStore) throws -> SnapListing {
        guard
            let listing = try postgres.queryFirst(
                """
                WITH s AS (\(store.snapInsert(snap)) RETURNING *),
                     i AS (INSERT INTO snap_images (snap_id, bytes) SELECT id, \(snap.image) FROM s)
                SELECT \(SQLStore.listingColumns(fixedState: .sent))
                FROM s JOIN feeds f ON f.id = s.feed_id JOIN users u ON u.id = s.poster_id
                """, StoreRows.snapListing)
        else {
            throw StoreError(.internalError, "a posted snap came back without its feed or poster")
        }
        return listing
    }

    /// A row lock, held to the end of the transaction: a second instance counting the same
    /// user's pins waits here until the first has committed, then counts its insert too.
    /// `FOR NO KEY UPDATE`, not `FOR UPDATE`: it conflicts with itself, which is all a cap needs,
    /// but not with the `FOR KEY SHARE` locks foreign-key checks take, so the user's posts, views
    /// and sessions on other instances never wait for it.
    func lockRow(table: String, keyColumn: String, key: Int64) throws {
        _ = try postgres.query("SELECT 1 AS locked FROM \(raw: table) WHERE \(raw: keyColumn) = \(key) FOR NO KEY UPDATE") { _ in () }
    }

    /// One advisory lock per key, held until the transaction ends, taken in one order and in one
    /// round trip (a select list is evaluated left to right; were two instances ever to meet in
    /// another order, PostgreSQL's deadlock check breaks one off and the writer runs it again:
    /// see `TypedStorageJob.mayRunAgain`). Rows need not exist to be locked.
    func lockThrottleBudgets(_ keys: [ThrottleKey]) throws {
        let ordered = Set(keys).sorted {
            ($0.kind, $0.scope.rawValue, $0.name, $0.address) < ($1.kind, $1.scope.rawValue, $1.name, $1.address)
        }
        guard !ordered.isEmpty else { return }
        let locks = ordered.enumerated().map { index, key -> SQL in
            let name = [key.kind, String(key.scope.rawValue), key.name, key.address].joined(separator: "\u{1F}")
            return "pg_advisory_xact_lock(hashtextextended(\(name), 0)) AS lock\(raw: String(index))"
        }
        _ = try postgres.query("SELECT \(SQL(joining: locks, separator: ", "))") { _ in () }
    }

    /// One instance at a time: the others find the lock taken and skip this round.
    func takePurgeTurn() throws -> Bool {
        try postgres.queryFirst("SELECT pg_try_advisory_xact_lock(\(raw: String(Self.purgeLock))) AS mine") { $0.bool("mine") } ?? false
    }

    func bytesDeleted() {}

    func compact() throws {}

    /// VACUUM FULL rewrites the tables that hold pictures (each locked while it is rewritten:
    /// requests touching it wait, seconds for a class's worth) and gives their free space back.
    func reclaimSpace() throws {
        try postgres.executeScript("VACUUM FULL snap_images, photo_images, photo_thumbnails, snaps")
    }

    /// An identity's sequence remembers the last value it gave, even when that row is gone.
    func idCounters(of identities: [SchemaCatalog.Identity]) throws -> [SchemaCatalog.Identity: Int64] {
        var counters: [SchemaCatalog.Identity: Int64] = [:]
        for identity in identities {
            counters[identity] =
                try postgres.queryFirst(
                    """
                    SELECT greatest(coalesce(pg_sequence_last_value(\(sequence(of: identity))), 0),
                                    (SELECT coalesce(max(\(raw: identity.column)), 0) FROM \(raw: identity.table))) AS counter
                    """
                ) { $0.int64("counter") } ?? 0
        }
        return counters
    }

    func raiseIdCounters(_ counters: [SchemaCatalog.Identity: Int64]) throws {
        for (identity, counter) in counters {
            try postgres.execute(
                """
                SELECT setval(\(sequence(of: identity)),
                              greatest(\(counter), coalesce(pg_sequence_last_value(\(sequence(of: identity))), 0),
                                       (SELECT coalesce(max(\(raw: identity.column)), 0) FROM \(raw: identity.table)), 1)) AS next
                """)
        }
    }

    /// The sequence that fills an identity column, as PostgreSQL finds it.
    private func sequence(of identity: SchemaCatalog.Identity) -> SQL {
        "pg_get_serial_sequence(\(identity.table), \(identity.column))"
    }

    /// Every table of this connection's schema: columns from `information_schema.columns`
    /// (generated ones left out: nothing can be written to them), a column is filled by a counter
    /// when a sequence belongs to it (an identity, or a serial), keys and parents from
    /// `pg_constraint`.
    func catalog() throws -> SchemaCatalog {
        let columns = try postgres.query(
            """
            SELECT table_name::text AS table_name, column_name::text AS column_name, data_type::text AS data_type,
                   is_nullable = 'YES' AS nullable,
                   pg_get_serial_sequence(quote_ident(table_name::text), column_name::text) IS NOT NULL AS counted
            FROM information_schema.columns
            WHERE table_schema = current_schema() AND is_generated = 'NEVER'
              AND table_name::text IN (SELECT table_name::text FROM information_schema.tables
                                       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')
            ORDER BY table_name, ordinal_position
            """
        ) { row in
            (
                table: row.string("table_name"), counted: row.bool("counted"),
                column: SchemaCatalog.Column(
                    name: row.string("column_name"), kind: .init(postgresType: row.string("data_type")),
                    nullable: row.bool("nullable"), declaredType: row.string("data_type"))
            )
        }
        let keys = try postgres.query(
            """
            SELECT t.relname::text AS table_name, a.attname::text AS column_name
            FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
                 CROSS JOIN LATERAL unnest(c.conkey) WITH ORDINALITY AS k (attnum, position)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
            WHERE c.contype = 'p' AND t.relnamespace = current_schema()::regnamespace
            ORDER BY t.relname, k.position
            """
        ) { (table: $0.string("table_name"), column: $0.string("column_name")) }
        let links = try postgres.query(
            """
            SELECT t.relname::text AS child, c.conname::text AS name, p.relname::text AS parent,
                   ca.attname::text AS column_name, pa.attname::text AS parent_column
            FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class p ON p.oid = c.confrelid
                 CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k (attnum, parent_attnum, position)
                 JOIN pg_attribute ca ON ca.attrelid = c.conrelid AND ca.attnum = k.attnum
                 JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = k.parent_attnum
            WHERE c.contype = 'f' AND t.relnamespace = current_schema()::regnamespace
            ORDER BY t.relname, c.conname, k.position
            """
        ) { row in
            (
                child: row.string("child"), name: row.string("name"), parent: row.string("parent"),
                column: row.string("column_name"), parentColumn: row.string("parent_column")
            )
        }
        let foreignKeys = Dictionary(grouping: links) { "\($0.child)\u{0}\($0.name)" }.values.map { links in
            (
                child: links[0].child,
                key: SchemaCatalog.ForeignKey(
                    columns: links.map(\.column), parent: links[0].parent, parentColumns: links.map(\.parentColumn))
            )
        }
        let byTable = Dictionary(grouping: columns, by: \.table)
        return SchemaCatalog(
            tables: byTable.map { name, columns in
                SchemaCatalog.Table(
                    name: name, columns: columns.map(\.column),
                    primaryKey: keys.filter { $0.table == name }.map(\.column),
                    foreignKeys: Set(foreignKeys.filter { $0.child == name }.map(\.key)),
                    identity: columns.first(where: \.counted)?.column.name)
            })
    }
}

extension SQLStore {
    /// A store on the PostgreSQL database `conninfo` (a libpq connection string or URI).
    package static func postgres(conninfo: String, readOnly: Bool = false) throws -> SQLStore {
        SQLStore(engine: try PostgresEngine(conninfo: conninfo, readOnly: readOnly))
    }

    /// The PostgreSQL connection under this store, if it is on PostgreSQL (for tools and tests).
    package var postgresConnection: PostgresConnection? { (engine as? PostgresEngine)?.postgres }
}
