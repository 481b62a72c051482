import SQL

/// What truly differs between the storage engines, and nothing else: each engine's file
/// (`SQLiteEngine`, `PostgresEngine`) answers these, and `SQLStore` writes every other
/// statement once for both.
protocol StorageEngine: AnyObject {
    /// The connection every statement of the store runs on.
    var connection: any SQLConnection { get }

    /// `expression` as the engine compares and orders names ignoring ASCII case only (users
    /// and feeds: the unique indexes are built on it).
    func foldedCase(_ expression: SQL) -> SQL
    /// `expression` ordered by its bytes, whatever the database's locale.
    func bytewise(_ expression: SQL) -> SQL
    /// A scalar subquery giving the database's size in bytes.
    var databaseSize: SQL { get }

    /// Inserts the snap and its image (`SQLStore.snapInsert`) and returns it as its poster
    /// sees it (sent, opened by nobody yet).
    func insertSnap(_ snap: NewSnap, in store: SQLStore) throws -> SnapListing

    /// Inside a transaction: holds the row of `table` whose `keyColumn` is `key` until the
    /// transaction ends, so a count or a check made after it still holds at the commit, on this
    /// and every other instance (the pin cap, an album's state). Nothing when the engine has
    /// one writer, whose transaction holds every row already.
    func lockRow(table: String, keyColumn: String, key: Int64) throws
    /// Inside a transaction: makes a concurrent change of the same throttle keys, from this or
    /// another instance, wait until this transaction ends (`ThrottleStore.lockThrottleBudgets`).
    func lockThrottleBudgets(_ keys: [ThrottleKey]) throws
    /// Inside a transaction: whether this instance takes this round of the expiry purge (one
    /// instance at a time; the others skip it).
    func takePurgeTurn() throws -> Bool

    /// Called after a statement deleted image bytes: makes them unrecoverable from the files
    /// once the transaction has committed.
    func bytesDeleted()
    /// Makes deleted bytes unrecoverable now (`MaintenanceStore.compact`).
    func compact() throws

    /// The database's tables, columns, keys and counters, as it describes them itself.
    func catalog() throws -> SchemaCatalog
    /// The highest value each of `identities` has handed out: at least its largest, more when
    /// its newest rows were deleted (ids only ever grow).
    func idCounters(of identities: [SchemaCatalog.Identity]) throws -> [SchemaCatalog.Identity: Int64]
    /// Outside any transaction: rewrites the database so the space of deleted rows goes back to
    /// the file system (`snapshare-server compact`).
    func reclaimSpace() throws
    /// Moves each counter so the next value it hands out is above the given one; never moves
    /// a counter back.
    func raiseIdCounters(_ counters: [SchemaCatalog.Identity: Int64]) throws
}
