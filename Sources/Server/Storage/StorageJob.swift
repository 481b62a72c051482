/// A unit of work waiting for a storage thread.
protocol StorageJob: AnyObject, Sendable {
    /// Runs the job on the thread's store and keeps the outcome until `complete`.
    func run(on store: any SnapshareStore)
    /// True when the last run was broken off by the database to end a conflict with another
    /// transaction (`StoreError.isTransient`; nothing of it was kept) and it may run again.
    var mayRunAgain: Bool { get }
    /// Hands the outcome to the submitter. `batchFailure` (the batch's BEGIN or COMMIT failed)
    /// replaces a success, because nothing the job did was committed.
    func complete(batchFailure: (any Error)?)
}

/// A job with a typed result.
final class TypedStorageJob<T: Sendable>: StorageJob, @unchecked Sendable {
    private let body: @Sendable (any SnapshareStore) throws -> T
    private let completion: @Sendable (Result<T, any Error>) -> Void
    /// Written by `run` and read by `complete`, both on the one storage thread that took the job.
    private var outcome: Result<T, any Error>?

    init(
        body: @escaping @Sendable (any SnapshareStore) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        self.body = body
        self.completion = completion
    }

    /// How many times it ran.
    private var runs = 0

    /// Runs the job in a transaction of its own: on a reader, one consistent snapshot; in a
    /// write batch, a savepoint, so a throw rolls back this job's changes only.
    func run(on store: any SnapshareStore) {
        let body = self.body
        runs += 1
        outcome = Result { try store.transaction { try body(store) } }
    }

    /// A job PostgreSQL broke off to end a deadlock with another instance's batch runs again,
    /// up to three runs in all. Not in the same batch: a rollback to its savepoint keeps the
    /// locks the batch's earlier jobs took, which are likely part of the same cycle.
    var mayRunAgain: Bool {
        guard runs < 3, case .failure(let error as StoreError) = outcome else { return false }
        return error.isTransient
    }

    func complete(batchFailure: (any Error)?) {
        var result = outcome ?? .failure(batchFailure ?? StoreError(.internalError, "storage job never ran"))
        if let batchFailure, case .success = result {
            result = .failure(batchFailure)
        }
        outcome = nil
        completion(result)
    }

    /// Delivers a failure without running (the executor is shut down).
    func reject(_ error: any Error) {
        completion(.failure(error))
    }
}
