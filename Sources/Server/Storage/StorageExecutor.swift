import Foundation
import Posix

/// Runs storage work on dedicated threads: one writer with group commit, and a few readers.
///
/// Why threads and not Swift tasks: SQLite calls block (fsync on COMMIT, busy waits), and the
/// cooperative pool has as many threads as cores (two here); a blocked pool would stall the
/// server. Each thread owns its own store (its own connection), so no connection is ever shared.
///
/// Group commit: the writer takes every write queued so far (up to `maximumBatchSize`), runs them
/// in ONE outer transaction with each job in its own savepoint (a throwing job rolls back only its
/// savepoint and gets its error), COMMITs once (one fsync for the batch), and only then calls the
/// completions, in submission order. If BEGIN or COMMIT fails, every job that had succeeded gets
/// that failure: an acknowledged write is a durable write.
///
/// Completions run on the storage thread; callers hop back to their own thread themselves.
package final class StorageExecutor: @unchecked Sendable {
    /// Makes a store for one thread: the writer (`readOnly` false, which also migrates) or a reader.
    package typealias StoreFactory = (_ path: String, _ readOnly: Bool) throws -> any SnapshareStore

    /// The database file.
    package let path: String
    /// The most writes one COMMIT covers.
    let maximumBatchSize: Int

    private let writes = WorkQueue<any StorageJob>()
    private let reads = WorkQueue<any StorageJob>()
    private let threadsRunning = DispatchGroup()
    private let counterLock = NSLock()
    /// Guarded by `counterLock`.
    private var batchCount = 0
    /// How long each write batch took, from BEGIN to COMMIT's return (for `GET /metrics`).
    let commitDurations = DurationHistogram()

    /// Opens the writer store (migrating the file), then `readerCount` read-only stores, and
    /// starts one thread for each. Throws if any store cannot be opened; nothing is left running.
    package init(
        path: String, readerCount: Int = 2, maximumBatchSize: Int = 256,
        makeStore: StoreFactory
    ) throws {
        precondition(readerCount >= 1, "at least one reader thread")
        precondition(maximumBatchSize >= 1, "a batch holds at least one write")
        self.path = path
        self.maximumBatchSize = maximumBatchSize
        // Writer first: it creates and migrates the file the readers then open.
        let writer = StoreOwner(try makeStore(path, false))
        let readers = try (0..<readerCount).map { _ in StoreOwner(try makeStore(path, true)) }

        startThread(named: "store-writer", owner: writer) { [writes, maximumBatchSize, weak self] store in
            writes.serveBatches(maximumCount: maximumBatchSize) { batch in
                Self.runWriteBatch(batch, on: store) { self?.countBatch(nanoseconds: $0) }
            }
        }
        for (index, reader) in readers.enumerated() {
            startThread(named: "store-reader-\(index)", owner: reader) { [reads] store in
                reads.serve { job in
                    job.run(on: store)
                    job.complete(batchFailure: nil)
                    return .done
                }
            }
        }
    }

    deinit {
        // Let the threads drain and exit; nothing can wait here safely (this may be a storage thread).
        writes.close()
        reads.close()
    }

    // MARK: Submitting work

    /// Why writes are refused on the current task (or thread), when they are: an admin request
    /// that is not in the audit log because it reads only runs so (`AuditNote.guarding`). Such a
    /// write fails at once and changes nothing.
    @TaskLocal static var writesRefused: String?

    /// Queues a write for the next group-commit batch; `completion` runs on the writer thread
    /// after the batch's COMMIT returned (or failed).
    package func write<T: Sendable>(
        _ job: @escaping @Sendable (any SnapshareStore) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        if let refusal = Self.writesRefused { return completion(.failure(StoreError(.internalError, refusal))) }
        submit(TypedStorageJob(body: job, completion: completion), to: writes)
    }

    /// Queues a read for whichever reader thread is free; it sees one consistent snapshot of
    /// committed data. Writing through a reader's store fails.
    package func read<T: Sendable>(
        _ job: @escaping @Sendable (any SnapshareStore) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        submit(TypedStorageJob(body: job, completion: completion), to: reads)
    }

    /// `write`, waiting for the outcome (admin commands, tests). Never call it from a storage thread.
    package func writeSync<T: Sendable>(_ job: @escaping @Sendable (any SnapshareStore) throws -> T) throws -> T {
        try waitFor { write(job, completion: $0) }
    }

    /// `read`, waiting for the outcome. Never call it from a storage thread.
    func readSync<T: Sendable>(_ job: @escaping @Sendable (any SnapshareStore) throws -> T) throws -> T {
        try waitFor { read(job, completion: $0) }
    }

    /// Stops accepting work, lets the threads finish everything already queued, and waits for
    /// them to exit (closing their connections). Later submissions fail with `unavailable`.
    package func shutdown() {
        precondition(!Self.isStorageThread, "shutdown() from a storage thread would wait for itself")
        writes.close()
        reads.close()
        threadsRunning.wait()
    }

    /// Writes waiting for the writer, and reads for a reader, now.
    var queuedWrites: Int { writes.count }
    var queuedReads: Int { reads.count }

    /// How many batches the writer has finished; counted before their
    /// completions run (for tests).
    var committedBatchCount: Int {
        counterLock.withLock { batchCount }
    }

    // MARK: Internals

    private func submit<T>(_ job: TypedStorageJob<T>, to queue: WorkQueue<any StorageJob>) {
        if !queue.submit(job) {
            job.reject(StoreError(.unavailable, "storage is shut down"))
        }
    }

    private func countBatch(nanoseconds: UInt64) {
        counterLock.withLock { batchCount += 1 }
        commitDurations.observe(nanoseconds: nanoseconds)
    }

    private func waitFor<T: Sendable>(_ submit: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Void) throws -> T {
        precondition(!Self.isStorageThread, "a synchronous storage call from a storage thread would deadlock")
        let slot = OutcomeSlot<T>()
        submit { slot.fill($0) }
        return try slot.wait().get()
    }

    private static let storageThreadKey = "snapshare.storage-thread"

    private static var isStorageThread: Bool {
        Thread.current.threadDictionary[storageThreadKey] != nil
    }

    private func startThread(
        named name: String, owner: StoreOwner,
        loop: @escaping @Sendable (any SnapshareStore) -> Void
    ) {
        threadsRunning.enter()
        let finished = threadsRunning
        NamedThread.start(name) {
            Thread.current.threadDictionary[Self.storageThreadKey] = true
            if let store = owner.store {
                loop(store)
            }
            // Close the connection on the thread that used it, before shutdown() returns.
            owner.store = nil
            finished.leave()
        }
    }

    /// Runs one group-commit batch on the writer's store. Jobs the database broke off to end a
    /// deadlock with another instance (`StorageJob.mayRunAgain`) run again in a batch of their
    /// own once this one has committed and released its locks.
    private static func runWriteBatch(
        _ batch: [any StorageJob], on store: any SnapshareStore,
        beforeCompletions: (_ nanoseconds: UInt64) -> Void
    ) {
        var batch = batch
        while !batch.isEmpty {
            var batchFailure: (any Error)?
            let started = MonotonicClock.nanoseconds()
            do {
                try store.transaction {
                    for job in batch {
                        job.run(on: store)
                    }
                }
            } catch {
                batchFailure = batchError(error)
            }
            beforeCompletions(MonotonicClock.nanoseconds() &- started)
            // Only now, after COMMIT returned, may anyone learn that a write happened. A job
            // PostgreSQL broke off (a deadlock) runs again, in a batch of its own making.
            var again: [any StorageJob] = []
            for job in batch {
                if batchFailure == nil && job.mayRunAgain { again.append(job) } else { job.complete(batchFailure: batchFailure) }
            }
            batch = again
        }
    }

    /// What the jobs of a batch that could not commit are told. Busy, I/O and damage keep their
    /// meaning; anything else (say, a deferred constraint one job broke) is an internal error for all,
    /// not the `notFound` or `conflict` it would mean for a single statement.
    private static func batchError(_ error: any Error) -> StoreError {
        if let error = error as? StoreError, error.kind == .unavailable || error.kind == .corrupt {
            return StoreError(error.kind, "the write batch was not committed: \(error.message)")
        }
        return StoreError(.internalError, "the write batch was not committed: \(error)")
    }
}

/// Hands a store to the thread that will own it (stores are not Sendable; this transfer is the
/// only cross-thread access, made before the thread starts).
private final class StoreOwner: @unchecked Sendable {
    var store: (any SnapshareStore)?
    init(_ store: any SnapshareStore) { self.store = store }
}

/// One result, filled on a storage thread and awaited by a blocked caller.
private final class OutcomeSlot<T: Sendable>: @unchecked Sendable {
    private let filled = DispatchSemaphore(value: 0)
    /// Written once before `filled` is signalled, read after the wait.
    private var outcome: Result<T, any Error>?

    func fill(_ outcome: Result<T, any Error>) {
        self.outcome = outcome
        filled.signal()
    }

    func wait() -> Result<T, any Error> {
        filled.wait()
        return outcome!
    }
}
