/// A unit of work waiting for a storage thread.
protocol StorageJob: AnyObject, Sendable {
    /// Runs the job on the thread's store and keeps the outcome until `complete`.
    func run(on store: any SnapshareStore)
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

    init(body: @escaping @Sendable (any SnapshareStore) throws -> T,
         completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        self.body = body
        self.completion = completion
    }

    /// Runs the job in a transaction of its own: on a reader, one consistent snapshot; in a
    /// write batch, a savepoint, so a throw rolls back this job's changes only. A job the
    /// database broke off to end a deadlock with another instance's batch (`isTransient`) was
    /// rolled back whole, so it runs again, up to three times in all.
    func run(on store: any SnapshareStore) {
        let body = self.body
        for attempt in 1...Self.attempts {
            outcome = Result { try store.transaction { try body(store) } }
            guard case .failure(let error as StoreError) = outcome, error.isTransient, attempt < Self.attempts else { return }
        }
    }

    private static var attempts: Int { 3 }

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
