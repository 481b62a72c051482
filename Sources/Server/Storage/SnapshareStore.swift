/// What storage offers, one protocol per concern, plus transactions: the ports handlers, the
/// album worker and the offline admin commands use (through `StorageExecutor`). `SQLStore`
/// implements it once, with its SQL written for both engines (SQLite, and PostgreSQL for
/// several instances); `Tests/ServerTests/StoreContract` holds the contract it must pass on
/// each engine, one suite per concern.
///
/// Methods are synchronous and throwing; a store instance is used by exactly one thread at a
/// time (`StorageExecutor` owns the threads). Times are milliseconds since the Unix epoch.
/// Failures are `StoreError`s. Every multi-step change runs inside `transaction`, which nests
/// (savepoints), so a caller that batches several changes into one outer transaction (group
/// commit) stays correct.
package protocol SnapshareStore: AccountStore, SessionStore, FeedStore, SnapStore, PinStore, MapStateStore,
    MovieStore, MaintenanceStore, ThrottleStore, DeviceStore, AuditStore, ModerationStore, RosterStore,
    ClassStore
{
    /// Runs `body` atomically; nested calls become savepoints, so a throw rolls back only its
    /// own level. Errors thrown by `body` come out unchanged.
    func transaction<T>(_ body: () throws -> T) throws -> T
}
