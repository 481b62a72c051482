import CSQLite

/// A failed SQLite call on a client file: the result codes, SQLite's message and the SQL.
struct ClientSQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, ...).
    var code: Int32
    /// The extended result code; equals `code` when there is none.
    var extendedCode: Int32
    var message: String
    var sql: String?

    init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// The error state of `connection` after a call returned `resultCode`.
    init(resultCode: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(resultCode))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? resultCode
        self.init(code: resultCode, extendedCode: (extended & 0xFF) == (resultCode & 0xFF) ? extended : resultCode,
                  message: message, sql: sql)
    }

    var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " [\(sql.prefix(80))]" }
        return text
    }

    /// The file is damaged or is not a database at all.
    var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
    /// Another process held the lock longer than the busy timeout.
    var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// A UNIQUE or PRIMARY KEY constraint refused the change.
    var isUniquenessViolation: Bool {
        extendedCode == SQLITE_CONSTRAINT | (6 << 8) || extendedCode == SQLITE_CONSTRAINT | (8 << 8)
    }
}
