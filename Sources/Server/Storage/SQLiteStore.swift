import CSQLite
import SQLite

/// `SnapshareStore` over one SQLite connection (see `SQLiteDatabase`).
///
/// A writer store migrates the file when it opens; a read-only store only checks that the file
/// is at the schema version this code expects. Every method maps SQLite failures to
/// `StoreError` (uniqueness → `conflict`, missing parent → `notFound`, busy or I/O →
/// `unavailable`, damaged file → `corrupt`). Like the connection, a store is used by one thread
/// at a time; `StorageExecutor` gives each thread its own.
public final class SQLiteStore: SnapshareStore {
    /// The connection this store runs on.
    public let database: SQLiteDatabase

    /// Wraps an open connection: migrates a writer's file, verifies a reader's.
    public init(database: SQLiteDatabase) throws {
        self.database = database
        try Self.translatingErrors("opening \(database.path)") {
            if database.isReadOnly {
                try Schema.verify(database)
            } else {
                try Schema.migrate(database)
            }
        }
    }

    /// Opens the file at `path` (creating and migrating it unless `readOnly`). A writer may hand
    /// its WAL checkpoints to a thread of their own (`WALCheckpointer`).
    public convenience init(path: String, readOnly: Bool = false, checkpointsInBackground: Bool = false) throws {
        let database = try Self.translatingErrors("opening \(path)") {
            // The store holds password hashes and images: its files are the owner's alone.
            if !readOnly && !path.isEmpty && path != ":memory:" { try DatabaseFiles.makeOwnerOnly(path) }
            return try SQLiteDatabase(path: path, readOnly: readOnly, checkpointsInBackground: checkpointsInBackground)
        }
        try self.init(database: database)
    }

    /// A store factory in the shape `StorageExecutor` takes; the writer checkpoints in the background.
    public static func open(path: String, readOnly: Bool) throws -> any SnapshareStore {
        try SQLiteStore(path: path, readOnly: readOnly, checkpointsInBackground: !readOnly)
    }

    /// Runs `body` atomically; nested calls become savepoints (see `SQLiteDatabase.transaction`).
    /// Errors thrown by `body` come out unchanged.
    @discardableResult
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try translatingErrors("transaction") { try database.transaction(body) }
    }

    // MARK: Error translation

    /// Runs `body`, turning any `SQLiteError` into the matching `StoreError`.
    @discardableResult
    func translatingErrors<T>(_ context: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        try Self.translatingErrors(context(), body)
    }

    @discardableResult
    static func translatingErrors<T>(_ context: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw storeError(for: error, context: context())
        }
    }

    /// The product-level meaning of a SQLite failure.
    static func storeError(for error: SQLiteError, context: String) -> StoreError {
        let kind: StoreError.Kind
        if error.isUniquenessViolation {
            kind = .conflict
        } else if error.isForeignKeyViolation {
            kind = .notFound
        } else if error.isCorruption {
            kind = .corrupt
        } else if error.isBusy || [SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PROTOCOL, SQLITE_NOLFS,
                                    SQLITE_NOMEM, SQLITE_PERM].contains(error.code) {
            kind = .unavailable
        } else {
            kind = .internalError
        }
        return StoreError(kind, "\(context): \(error)")
    }
}
