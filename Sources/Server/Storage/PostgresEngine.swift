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
    static let migrationLock: Int64 = 7363616870
    static let purgeLock: Int64 = 7363616871

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
        guard let listing = try postgres.queryFirst("""
            WITH s AS (\(store.snapInsert(snap)) RETURNING *),
                 i AS (INSERT INTO snap_images (snap_id, bytes) SELECT id, \(snap.image) FROM s)
            SELECT \(SQLStore.listingColumns(fixedState: .sent))
            FROM s JOIN feeds f ON f.id = s.feed_id JOIN users u ON u.id = s.poster_id
            """, StoreRows.snapListing) else {
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
        let ordered = Set(keys).sorted { ($0.kind, $0.scope.rawValue, $0.name, $0.address) < ($1.kind, $1.scope.rawValue, $1.name, $1.address) }
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
    func idCounters(of tables: [String]) throws -> [String: Int64] {
        var counters: [String: Int64] = [:]
        for table in tables {
            counters[table] = try postgres.queryFirst("""
                SELECT greatest(coalesce(pg_sequence_last_value(pg_get_serial_sequence(\(table), 'id')), 0),
                                (SELECT coalesce(max(id), 0) FROM \(raw: table))) AS counter
                """) { $0.int64("counter") } ?? 0
        }
        return counters
    }

    func raiseIdCounters(_ counters: [String: Int64]) throws {
        for (table, counter) in counters {
            try postgres.execute("""
                SELECT setval(pg_get_serial_sequence(\(table), 'id'),
                              greatest(\(counter), coalesce(pg_sequence_last_value(pg_get_serial_sequence(\(table), 'id')), 0),
                                       (SELECT coalesce(max(id), 0) FROM \(raw: table)), 1)) AS next
                """)
        }
    }
}

extension SQLStore {
    /// A store on the PostgreSQL database `conninfo` (a libpq connection string or URI).
    public static func postgres(conninfo: String, readOnly: Bool = false) throws -> SQLStore {
        SQLStore(engine: try PostgresEngine(conninfo: conninfo, readOnly: readOnly))
    }

    /// The PostgreSQL connection under this store, if it is on PostgreSQL (for tools and tests).
    public var postgresConnection: PostgresConnection? { (engine as? PostgresEngine)?.postgres }
}
