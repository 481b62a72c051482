import Foundation

/// A FIFO of storage jobs shared by one or more storage threads, closable for shutdown.
final class StorageQueue: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [any StorageJob] = []
    private var isClosed = false

    /// Adds a job; false if the queue is closed.
    func submit(_ job: any StorageJob) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Stops accepting jobs; the threads drain what is queued and then see nil.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for a job; nil once the queue is closed and empty.
    func next() -> (any StorageJob)? {
        nextBatch(maximumCount: 1).first
    }

    /// Waits for work, then takes every queued job, up to `maximumCount`. Empty once the queue is
    /// closed and drained.
    func nextBatch(maximumCount: Int) -> [any StorageJob] {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !isClosed {
            condition.wait()
        }
        let count = min(maximumCount, jobs.count)
        let batch = Array(jobs[0..<count])
        jobs.removeFirst(count)
        return batch
    }
}
