import CSQLite

/// SQLite copies bound text and blobs before the bind call returns, so Swift buffers only
/// need to live for the call.
private let transient = snapshare_sqlite_transient()

/// One prepared statement of a `ClientSQLite` connection; finalized when released.
/// Parameters are numbered from 1, columns from 0, as SQLite numbers them.
final class ClientSQLiteStatement {
    let sql: String
    private let handle: OpaquePointer

    init(handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    private func check(_ resultCode: Int32) throws(ClientSQLiteError) {
        guard resultCode == SQLITE_OK else {
            throw ClientSQLiteError(resultCode: resultCode, connection: sqlite3_db_handle(handle), sql: sql)
        }
    }

    /// Binds `values` to parameters 1...n; the count must match.
    func bind(_ values: [ClientSQLiteValue]) throws(ClientSQLiteError) {
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw ClientSQLiteError(code: SQLITE_RANGE, message: "\(values.count) values for \(expected) parameters", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let number): try check(sqlite3_bind_int64(handle, index, number))
            case .real(let number): try check(sqlite3_bind_double(handle, index, number))
            case .null: try check(sqlite3_bind_null(handle, index))
            case .text(let text):
                let utf8 = Array(text.utf8)
                // An empty buffer may have no address, and a null pointer would bind NULL.
                let code = utf8.isEmpty ? sqlite3_bind_text(handle, index, "", 0, transient)
                    : utf8.withUnsafeBufferPointer { buffer in
                        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                            sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(buffer.count), transient, UInt8(SQLITE_UTF8))
                        }
                    }
                try check(code)
            case .blob(let bytes):
                let code = bytes.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes { sqlite3_bind_blob64(handle, index, $0.baseAddress, sqlite3_uint64($0.count), transient) }
                try check(code)
            }
        }
    }

    /// Advances; true when a row is ready, false when the statement is done.
    @discardableResult
    func step() throws(ClientSQLiteError) -> Bool {
        let resultCode = sqlite3_step(handle)
        switch resultCode {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw ClientSQLiteError(resultCode: resultCode, connection: sqlite3_db_handle(handle), sql: sql)
        }
    }

    /// Column `index` as an integer (NULL reads as 0).
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` as a double.
    func double(at index: Int32) -> Double { sqlite3_column_double(handle, index) }

    /// True when column `index` is NULL.
    func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` as text (NULL reads as the empty string; invalid UTF-8 is repaired).
    func string(at index: Int32) -> String {
        guard let text = sqlite3_column_text(handle, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))), as: UTF8.self)
    }

    /// Column `index` as bytes (NULL and the empty blob both read as `[]`).
    func blob(at index: Int32) -> [UInt8] {
        // The pointer first: sqlite3_column_bytes after it reports the blob's size.
        guard let bytes = sqlite3_column_blob(handle, index) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, index))))
    }
}
