import CSQLite
import SQL

/// One blob of a row the caller found in the current transaction, read with SQLite's incremental
/// I/O (`sqlite3_blob_open`) only when its bytes are asked for.
///
/// Why incremental I/O: reading a blob column through a statement makes SQLite assemble it from
/// its overflow pages into a buffer of its own, which we would then copy again;
/// `sqlite3_blob_read` copies from the pages straight into the caller's memory. Why only when
/// asked: opening a blob compiles a small program each time, and a caller holding the bytes in
/// memory already skips it.
final class SQLiteBlob: StoredBytes {
    private let connection: OpaquePointer
    private let table: String
    private let column: String
    private let rowID: Int64

    init(connection: OpaquePointer, table: String, column: String, rowID: Int64) {
        self.connection = connection
        self.table = table
        self.column = column
        self.rowID = rowID
    }

    func array() throws -> [UInt8] {
        var blob: OpaquePointer?
        let resultCode = sqlite3_blob_open(connection, "main", table, column, rowID, 0, &blob)
        defer { sqlite3_blob_close(blob) }
        guard resultCode == SQLITE_OK, let blob else {
            throw SQLiteError(resultCode: resultCode, connection: connection, sql: nil)
        }
        let count = Int(sqlite3_blob_bytes(blob))
        return try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 {
                let readCode = sqlite3_blob_read(blob, buffer.baseAddress!, Int32(count), 0)
                guard readCode == SQLITE_OK else {
                    throw SQLiteError(code: readCode, message: String(cString: sqlite3_errstr(readCode)))
                }
            }
            initialized = count
        }
    }
}
