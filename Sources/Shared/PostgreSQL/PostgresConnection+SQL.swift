import SQL

/// The statements of `SQL`, rendered with PostgreSQL's placeholders (`$1`, `$2`, …) and run as
/// prepared statements, which are keyed by the rendered text.
extension PostgresConnection: SQLConnection {
    public func query<T>(_ sql: SQL, _ row: (any SQLRow) throws -> T) throws -> [T] {
        let (text, values) = Self.render(sql)
        return try query(text, values).map(row)
    }

    public func queryFirst<T>(_ sql: SQL, _ row: (any SQLRow) throws -> T) throws -> T? {
        let (text, values) = Self.render(sql)
        return try query(text, values).first.map(row)
    }

    @discardableResult
    public func execute(_ sql: SQL) throws -> Int {
        let (text, values) = Self.render(sql)
        return try execute(text, values)
    }

    /// One `bytea` fetch, made only when the bytes are asked for. A row gone meanwhile (another
    /// instance's purge committed between the caller's read and this one) throws, as SQLite's
    /// blob open does, so nothing is handed out, or committed, for bytes that are not there.
    public func withStoredBytes<R>(
        table: String, column: String, keyColumn: String, key: Int64,
        _ body: (any StoredBytes) throws -> R
    ) throws -> R {
        try body(
            PostgresBytes {
                guard
                    let bytes = try self.queryFirst(
                        "SELECT \(raw: column) AS bytes FROM \(raw: table) WHERE \(raw: keyColumn) = \(key)",
                        { $0.bytes("bytes") })
                else {
                    throw PostgresError(sqlState: "P0002", message: "\(table) has no row \(key) any more")
                }
                return bytes
            })
    }

    private static func render(_ sql: SQL) -> (text: String, values: [SQLValue]) {
        sql.rendered { "$\($0)" }
    }
}

/// Bytes on PostgreSQL, read (one `bytea` fetch) only when asked for.
struct PostgresBytes: StoredBytes {
    let read: () throws -> [UInt8]
    func array() throws -> [UInt8] { try read() }
}
