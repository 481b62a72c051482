import CSQLite

/// One blob opened for reading with SQLite's incremental I/O (`sqlite3_blob_open`).
///
/// Why: reading a blob column through a statement makes SQLite assemble it from its overflow
/// pages into a buffer of its own, which we would then copy again. `sqlite3_blob_read` copies
/// from the pages straight into the caller's memory. Used inside the transaction that found the
/// row, and closed before it ends.
final class SQLiteBlob: StoredBytes {
    private var handle: OpaquePointer?
    let count: Int

    /// Opens `table.column` of row `rowID` read-only; nil when there is no such row.
    init?(connection: OpaquePointer, table: String, column: String, rowID: Int64) throws {
        var blob: OpaquePointer?
        let resultCode = sqlite3_blob_open(connection, "main", table, column, rowID, 0, &blob)
        guard resultCode == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            let error = SQLiteError(resultCode: resultCode, connection: connection, sql: nil)
            // SQLite says "no such rowid" with a plain SQLITE_ERROR when the row is missing.
            if resultCode == SQLITE_ERROR && error.message.hasPrefix("no such rowid") { return nil }
            throw error
        }
        handle = blob
        count = Int(sqlite3_blob_bytes(blob))
    }

    deinit { close() }

    func copy(into buffer: UnsafeMutableRawBufferPointer) throws {
        precondition(buffer.count >= count, "the buffer holds \(buffer.count) bytes, the blob \(count)")
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "blob read after close") }
        guard count > 0 else { return }
        let resultCode = sqlite3_blob_read(handle, buffer.baseAddress!, Int32(count), 0)
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(code: resultCode, message: String(cString: sqlite3_errstr(resultCode)))
        }
    }

    func close() {
        if let handle { sqlite3_blob_close(handle) }
        handle = nil
    }
}
