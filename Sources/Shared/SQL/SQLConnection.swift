/// A connection of either engine, as the store uses it: statements written once as `SQL`,
/// rows read by column name, nested transactions, and bytes read from storage on demand.
/// `SQLiteDatabase` and `PostgresConnection` adopt it. Used by one thread at a time.
///
/// Failures are the engine's own error types, which are `SQLFailure`s.
public protocol SQLConnection: AnyObject {
    /// Runs `sql` and maps every row it returns.
    func query<T>(_ sql: SQL, _ row: (any SQLRow) throws -> T) throws -> [T]
    /// Runs `sql` and maps its first row, if any.
    func queryFirst<T>(_ sql: SQL, _ row: (any SQLRow) throws -> T) throws -> T?
    /// Runs a statement to completion and returns how many rows it changed.
    @discardableResult
    func execute(_ sql: SQL) throws -> Int
    /// Runs `body` atomically; nested calls are savepoints, so a throw undoes only its level.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// Runs `body` with the bytes in `column` of the row of `table` whose integer primary key
    /// `keyColumn` is `key`, read only if `body` asks. Call it in the transaction that found the row.
    func withStoredBytes<R>(
        table: String, column: String, keyColumn: String, key: Int64,
        _ body: (any StoredBytes) throws -> R
    ) throws -> R
}
