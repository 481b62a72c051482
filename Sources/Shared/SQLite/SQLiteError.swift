import CSQLite
import SQL

/// A failed SQLite call: the primary and extended result codes, SQLite's message and the SQL.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, ...).
    public var code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY`, ...); equals `code` when there is none.
    public var extendedCode: Int32
    /// SQLite's own explanation, or ours for failures detected in Swift.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    /// Makes an error from explicit parts.
    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// Reads the error state of a connection after a call returned `resultCode`.
    init(resultCode: Int32, connection: OpaquePointer?, sql: String? = nil) {
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? resultCode
        let message: String
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else {
            message = String(cString: sqlite3_errstr(resultCode))
        }
        // sqlite3_extended_errcode reports the most recent failure on the connection, which is
        // this one unless the caller lost track; fall back to the code we were handed.
        let matches = (extended & 0xFF) == (resultCode & 0xFF)
        self.init(
            code: resultCode & 0xFF, extendedCode: matches ? extended : resultCode,
            message: message, sql: sql)
    }

    public var description: String {
        var text = "SQLite error \(code)"
        if extendedCode != code { text += " (extended \(extendedCode))" }
        text += ": \(message)"
        if let sql { text += " [\(sql)]" }
        return text
    }

    /// The connection could not get a lock within its busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// A UNIQUE or PRIMARY KEY constraint refused the change.
    public var isUniquenessViolation: Bool {
        extendedCode == Self.constraintPrimaryKey || extendedCode == Self.constraintUnique
    }
    /// A FOREIGN KEY constraint refused the change (the referenced row does not exist).
    public var isForeignKeyViolation: Bool { extendedCode == Self.constraintForeignKey }

    // The extended codes are macros built with `|` and `<<`, which Swift does not import.
    /// `SQLITE_CONSTRAINT_FOREIGNKEY`.
    static let constraintForeignKey = SQLITE_CONSTRAINT | (3 << 8)
    /// `SQLITE_CONSTRAINT_PRIMARYKEY`.
    static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    /// `SQLITE_CONSTRAINT_UNIQUE`.
    static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
    /// The file is damaged or is not a database.
    public var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    /// A statement the program got wrong, or the generic `SQLITE_ERROR` (such as a table
    /// another process has just created or dropped while this one prepared).
    public var isGenericError: Bool { code == SQLITE_ERROR }
}

extension SQLiteError: SQLFailure {
    /// Busy, I/O, a full disk, a file that cannot be opened or a lost lock protocol: the
    /// database cannot be used just now, though nothing is wrong with the statement.
    public var failureKind: SQLFailureKind {
        if isUniquenessViolation { return .uniqueness }
        if isForeignKeyViolation { return .foreignKey }
        if isCorruption { return .corrupt }
        if isBusy || [SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PROTOCOL, SQLITE_NOLFS, SQLITE_NOMEM, SQLITE_PERM].contains(code) {
            return .unavailable
        }
        return .other
    }
}
