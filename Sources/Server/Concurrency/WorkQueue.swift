import Foundation

/// A FIFO of work shared by one or more threads of our own (storage jobs, executor jobs),
/// closable for shutdown: the threads drain what is queued, then `next` says there is no more.
final class WorkQueue<Job>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var jobs: [Job] = []
    private var isClosed = false

    /// Adds a job; false if the queue is closed.
    func submit(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosed else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// How many jobs wait now (for the metrics; stale as soon as it is read).
    var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count
    }

    /// Stops accepting jobs; the threads drain what is queued and then see nil.
    func close() {
        condition.lock()
        isClosed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for a job; nil once the queue is closed and empty.
    func next() -> Job? {
        nextBatch(maximumCount: 1).first
    }

    /// Waits for work, then takes every queued job, up to `maximumCount`. Empty once the queue is
    /// closed and drained.
    func nextBatch(maximumCount: Int) -> [Job] {
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
