import CSQLite
import SQL

/// SQLite copies bound text and blobs before the bind call returns (the `SQLITE_TRANSIENT`
/// destructor), so Swift buffers only need to live for the duration of the call.
private let transientDestructor = snapshare_sqlite_transient()

/// One prepared statement: typed binds, stepping and column reads. Finalized in `deinit`.
///
/// Parameters are numbered as SQLite numbers them, from 1. Columns are read by name
/// (`row.int64("id")`, GRDB's way), so a query that gains a column cannot shift another one;
/// the names are looked up once per prepared statement.
public final class SQLiteStatement {
    /// The statement's SQL text, for error messages.
    public let sql: String
    let handle: OpaquePointer
    /// True while a `SQLiteDatabase.withStatement` body holds this cached statement.
    var isCheckedOut = false
    /// Column index by name, filled on the first read by name.
    private var columnIndexes: [String: Int32]?

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    private var connection: OpaquePointer? { sqlite3_db_handle(handle) }

    private func check(_ resultCode: Int32) throws {
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(resultCode: resultCode, connection: connection, sql: sql)
        }
    }

    // MARK: Binding

    /// Binds a 64-bit integer to parameter `index` (from 1).
    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a double to parameter `index`.
    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds UTF-8 text to parameter `index`.
    public func bind(_ value: String, at index: Int32) throws {
        var text = value
        let resultCode = text.withUTF8 { utf8 -> Int32 in
            guard let base = utf8.baseAddress, utf8.count > 0 else {
                // A null pointer would bind NULL, not the empty string.
                return sqlite3_bind_text(handle, index, "", 0, transientDestructor)
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text64(
                    handle, index, $0, sqlite3_uint64(utf8.count), transientDestructor,
                    UInt8(SQLITE_UTF8))
            }
        }
        try check(resultCode)
    }

    /// Binds bytes as a blob to parameter `index`; an empty array binds an empty blob, not NULL.
    public func bind(_ value: [UInt8], at index: Int32) throws {
        let resultCode = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                // sqlite3_bind_blob with a null pointer would bind NULL.
                return sqlite3_bind_zeroblob(handle, index, 0)
            }
            return sqlite3_bind_blob64(handle, index, base, sqlite3_uint64(bytes.count), transientDestructor)
        }
        try check(resultCode)
    }

    /// Binds SQL NULL to parameter `index`.
    public func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds one value of any storage class to parameter `index`; a flag binds as 1 or 0.
    public func bind(_ value: SQLValue, at index: Int32) throws {
        switch value {
        case .integer(let number): try bind(number, at: index)
        case .real(let number): try bind(number, at: index)
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(bytes, at: index)
        case .bool(let flag): try bind(Int64(flag ? 1 : 0), at: index)
        case .null: try bindNull(at: index)
        }
    }

    /// Binds `values` to parameters 1...n; the count must match the statement's parameters.
    public func bind(_ values: [SQLValue]) throws {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(values.count) values for \(expected) parameters", sql: sql)
        }
        // Traced as SQLite stores them: a flag is the integer it binds as.
        if SQLTrace.isOn {
            SQLTrace.record(
                engine: "sqlite", sql: sql, values: values.map { if case .bool(let flag) = $0 { .integer(flag ? 1 : 0) } else { $0 } })
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    // MARK: Stepping

    /// Advances the statement; true when a row is ready to read, false when it is done.
    @discardableResult
    public func step() throws -> Bool {
        let resultCode = sqlite3_step(handle)
        switch resultCode {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(resultCode: resultCode, connection: connection, sql: sql)
        }
    }

    /// Rewinds the statement and clears its bindings so it can run again.
    public func reset() {
        // sqlite3_reset repeats the last step's error code; step already reported it.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns by name

    /// The index of the result column called `name` (as the SQL names it, `AS` included).
    /// A name the query does not have is a programming error.
    public func column(_ name: String) -> Int32 {
        if columnIndexes == nil {
            var indexes: [String: Int32] = [:]
            for index in 0..<sqlite3_column_count(handle) {
                if let text = sqlite3_column_name(handle, index) { indexes[String(cString: text)] = index }
            }
            columnIndexes = indexes
        }
        guard let index = columnIndexes?[name] else { preconditionFailure("no column \(name) in: \(sql)") }
        return index
    }

    /// Column `name` as a 64-bit integer (NULL reads as 0).
    public func int64(_ name: String) -> Int64 { int64(at: column(name)) }
    /// Column `name` as a flag stored as 0 or 1.
    public func bool(_ name: String) -> Bool { int64(at: column(name)) != 0 }
    /// Column `name` as a double.
    public func double(_ name: String) -> Double { double(at: column(name)) }
    /// Column `name` as text (NULL reads as the empty string).
    public func string(_ name: String) -> String { string(at: column(name)) }
    /// Column `name` as bytes (NULL and the empty blob both read as `[]`).
    public func blob(_ name: String) -> [UInt8] { blob(at: column(name)) }
    /// Column `name` as bytes, as `SQLRow` names it.
    public func bytes(_ name: String) -> [UInt8] { blob(at: column(name)) }
    /// Whether column `name` is NULL.
    public func isNull(_ name: String) -> Bool { sqlite3_column_type(handle, column(name)) == SQLITE_NULL }

    // MARK: Columns by position

    /// Column `index` as a 64-bit integer (NULL reads as 0). For one-column results
    /// (`SELECT count(*)`, pragmas); rows of several columns are read by name.
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Column `index` as a double.
    public func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// Column `index` as text (NULL reads as the empty string).
    public func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Column `index` as bytes (NULL and the empty blob both read as `[]`).
    public func blob(at index: Int32) -> [UInt8] {
        // Ask for the pointer first: sqlite3_column_bytes after it reports the blob's size.
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}

/// A statement stepped to a row is that row, read by column name.
extension SQLiteStatement: SQLRow {}
