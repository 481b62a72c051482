import SQLite

/// Wiring of the executor to the SQLite store.
extension StorageExecutor {
    /// An executor whose writer and `readers` reader threads each own a `SQLiteStore` on `path`.
    public static func sqlite(path: String, readers: Int = 2, maximumBatchSize: Int = 256) throws -> StorageExecutor {
        try StorageExecutor(path: path, readerCount: readers, maximumBatchSize: maximumBatchSize,
                            makeStore: SQLiteStore.open)
    }

    /// The same executor on a PostgreSQL database shared with other instances: one connection
    /// for the writer (its batches commit together, as on SQLite) and one per reader.
    public static func postgres(conninfo: String, readers: Int = 2, maximumBatchSize: Int = 256) throws -> StorageExecutor {
        try StorageExecutor(path: conninfo, readerCount: readers, maximumBatchSize: maximumBatchSize) { conninfo, readOnly in
            try PostgresStore(conninfo: conninfo, readOnly: readOnly)
        }
    }
}
