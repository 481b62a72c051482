/// The one interface every storage engine implements (SQLite now, PostgreSQL later): the
/// stores of each concern, plus transactions. Handlers, the album worker and the offline admin
/// commands reach it through `StorageExecutor`; `Tests/ServerTests/StoreContract` holds the
/// contract every engine must pass, one suite per concern.
///
/// Methods are synchronous and throwing; a store instance is used by exactly one thread at a
/// time (`StorageExecutor` owns the threads). Times are milliseconds since the Unix epoch.
/// Failures are `StoreError`s. Every multi-step change runs inside `transaction`, which nests
/// (savepoints), so a caller that batches several changes into one outer transaction (group
/// commit) stays correct.
public protocol SnapshareStore: AccountStore, SessionStore, FeedStore, SnapStore, PinStore, MapStateStore,
                                MovieStore, MaintenanceStore, ThrottleStore {
    /// Runs `body` atomically; nested calls become savepoints, so a throw rolls back only its
    /// own level. Errors thrown by `body` come out unchanged.
    func transaction<T>(_ body: () throws -> T) throws -> T
}
