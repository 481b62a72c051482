/// Wiring of the executor to the store on either engine.
extension StorageExecutor {
    /// An executor whose writer and `readers` reader threads each own a `SQLStore` on the SQLite file at `path`.
    package static func sqlite(path: String, readers: Int = 2, maximumBatchSize: Int = 256) throws -> StorageExecutor {
        try StorageExecutor(
            path: path, readerCount: readers, maximumBatchSize: maximumBatchSize,
            makeStore: SQLStore.openSQLite)
    }

    /// The same executor on a PostgreSQL database shared with other instances: one connection
    /// for the writer (its batches commit together, as on SQLite) and one per reader.
    package static func postgres(conninfo: String, readers: Int = 2, maximumBatchSize: Int = 256) throws -> StorageExecutor {
        try StorageExecutor(path: conninfo, readerCount: readers, maximumBatchSize: maximumBatchSize) { conninfo, readOnly in
            try SQLStore.postgres(conninfo: conninfo, readOnly: readOnly)
        }
    }
}
