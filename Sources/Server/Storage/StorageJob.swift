/// A unit of work waiting for a storage thread.
protocol StorageJob: AnyObject, Sendable {
    /// How the job runs; decides whether it may share a group-commit batch.
    var mode: StorageJobMode { get }
    /// Runs the job on the thread's store and keeps the outcome until `complete`.
    func run(on store: any SnapshareStore)
    /// Hands the outcome to the submitter. `batchFailure` (the batch's BEGIN or COMMIT failed)
    /// replaces a success, because nothing the job did was committed.
    func complete(batchFailure: (any Error)?)
}

/// Where and how a job runs.
enum StorageJobMode: Sendable {
    /// On the writer, in its own savepoint inside a group-commit transaction.
    case batchedWrite
    /// On the writer, alone and outside any transaction (for `compact`).
    case unbatchedWrite
    /// On a reader, in its own deferred transaction (one consistent snapshot).
    case read
}

/// A job with a typed result.
final class TypedStorageJob<T: Sendable>: StorageJob, @unchecked Sendable {
    let mode: StorageJobMode
    private let body: @Sendable (any SnapshareStore) throws -> T
    private let completion: @Sendable (Result<T, any Error>) -> Void
    /// Written by `run` and read by `complete`, both on the one storage thread that took the job.
    private var outcome: Result<T, any Error>?

    init(mode: StorageJobMode, body: @escaping @Sendable (any SnapshareStore) throws -> T,
         completion: @escaping @Sendable (Result<T, any Error>) -> Void) {
        self.mode = mode
        self.body = body
        self.completion = completion
    }

    func run(on store: any SnapshareStore) {
        let body = self.body
        switch mode {
        case .batchedWrite, .read:
            // In a batch this is a savepoint: a throw rolls back this job's changes only.
            outcome = Result { try store.transaction { try body(store) } }
        case .unbatchedWrite:
            outcome = Result { try body(store) }
        }
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
