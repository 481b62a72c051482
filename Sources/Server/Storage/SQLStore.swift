import SQL

/// The one store: every concern's SQL written once, run on either engine (SQLite, or
/// PostgreSQL for several instances sharing one database). One file per concern
/// (`SQLStore+Accounts`, `+Sessions`, `+Feeds`, `+Movies`, `+Snaps`, `+Pins`, `+Albums`,
/// `+MapState`, `+Throttles`, `+Maintenance`) holds its statements; what truly differs between
/// the engines — case folding, locks, erasing deleted bytes, compaction, the one-statement
/// post — is asked of `engine` (`SQLiteEngine`, `PostgresEngine`), the only place dialect
/// words live.
///
/// Statements are written in what both SQLite ≥ 3.35 and PostgreSQL 15 accept (`RETURNING`,
/// `ON CONFLICT`, `NOT flag`, `<>`, row values). Like a connection, a store is used by one
/// thread at a time; `StorageExecutor` gives each thread its own. Every method turns the
/// engine's failures into `StoreError`s (uniqueness → `conflict`, missing parent → `notFound`,
/// busy, I/O or a lost connection → `unavailable`, damaged data → `corrupt`).
package final class SQLStore: SnapshareStore {
    /// What differs between the engines, and the connection.
    let engine: any StorageEngine
    /// The engine's connection, as every statement here uses it.
    let sql: any SQLConnection

    init(engine: any StorageEngine) {
        self.engine = engine
        self.sql = engine.connection
    }

    /// Runs `body` atomically; nested calls become savepoints, so a throw rolls back only its
    /// own level. Errors thrown by `body` come out unchanged.
    @discardableResult
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try translatingErrors("transaction") { try sql.transaction(body) }
    }

    // MARK: Error translation

    /// Runs `body`, turning an engine's failure into the matching `StoreError`.
    @discardableResult
    func translatingErrors<T>(_ context: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        try Self.translatingErrors(context(), body)
    }

    @discardableResult
    static func translatingErrors<T>(_ context: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as any SQLFailure {
            throw storeError(for: failure, context: context())
        }
    }

    /// The product-level meaning of an engine's failure.
    static func storeError(for failure: any SQLFailure, context: String) -> StoreError {
        let kind: StoreError.Kind =
            switch failure.failureKind {
            case .uniqueness: .conflict
            case .foreignKey: .notFound
            case .unavailable: .unavailable
            case .corrupt: .corrupt
            case .transient, .other: .internalError
            }
        return StoreError(kind, "\(context): \(failure)", isTransient: failure.failureKind == .transient)
    }

    /// Names compared and ordered ignoring ASCII case (users, feeds), in the engine's words.
    func folded(_ expression: SQL) -> SQL { engine.foldedCase(expression) }
}
