import SQL

/// The statements of `SQL`, rendered with numbered placeholders (`?1`, `?2`, …) and run through
/// the statement cache, which keys on the rendered text.
extension SQLiteDatabase: SQLConnection {
    public func query<T>(_ sql: SQL, _ row: (any SQLRow) throws -> T) throws -> [T] {
        let (text, values) = Self.render(sql)
        return try query(text, values, row: row)
    }

    public func queryFirst<T>(_ sql: SQL, _ row: (any SQLRow) throws -> T) throws -> T? {
        let (text, values) = Self.render(sql)
        return try queryFirst(text, values, row: row)
    }

    @discardableResult
    public func execute(_ sql: SQL) throws -> Int {
        let (text, values) = Self.render(sql)
        return try run(text, values)
    }

    /// The integer in the first column of the first row (`SELECT count(*) …`); 0 when there is none.
    public func scalar(_ sql: SQL) throws -> Int64 {
        let (text, values) = Self.render(sql)
        return try scalar(text, values)
    }

    /// SQLite reads the blob by its rowid: `keyColumn` must be the table's `INTEGER PRIMARY KEY`.
    public func withStoredBytes<R>(
        table: String, column: String, keyColumn: String, key: Int64,
        _ body: (any StoredBytes) throws -> R
    ) throws -> R {
        try withStoredBytes(table: table, column: column, rowID: key, body)
    }

    private static func render(_ sql: SQL) -> (text: String, values: [SQLValue]) {
        sql.rendered { "?\($0)" }
    }
}
