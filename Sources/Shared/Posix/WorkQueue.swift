import Foundation

/// A FIFO of jobs served by threads of our own: the server's storage writer and readers, its
/// thread pools and its change feed, and the app's network and local workers.
///
/// A thread serves the queue with `serve` (one job at a time) or `serveBatches` (every job queued,
/// up to a count): it waits for work, runs it, and returns once there is no more. A job counts as
/// queued until the job it is finishes, so "empty" (`isIdle`, `waitUntilEmpty`) means every job
/// asked for has run. A job may ask to run again, at once or after a pause (a reconnect): the thread
/// serving it keeps it and tries again, so with one thread serving, the jobs behind it wait and the
/// order holds.
///
/// Two ways to end: `close()` takes no more jobs and lets the threads drain what is queued (a
/// server's shutdown: nothing acknowledged is dropped); `stop()` takes no more either and drops
/// the jobs not started (the app leaving: a request nobody waits for is not sent).
public final class WorkQueue<Job>: @unchecked Sendable {
    /// What became of a job `serve` ran.
    public enum Outcome: Equatable, Sendable {
        /// It ran: it leaves the queue.
        case done
        /// Run it again after this many seconds (0: at once); `stop()` ends the pause and drops it.
        case again(after: Double)
    }

    private enum State {
        case open
        /// No new jobs; the queued ones still run.
        case closed
        /// No new jobs; the queued ones are dropped.
        case stopped
    }

    private let condition = NSCondition()
    /// Guarded by `condition`: the jobs no thread has taken yet, oldest first.
    private var waiting: [Job] = []
    /// Guarded by `condition`: jobs taken and not finished (pausing ones included).
    private var running = 0
    /// Guarded by `condition`: threads pausing before trying a job again.
    private var pausing = 0
    /// Guarded by `condition`: callers of `waitUntilEmpty`, who wait on the same condition as the
    /// serving threads (so a new job then wakes everyone, not just one thread).
    private var emptyWaiters = 0
    private var state = State.open
    /// Set by `runInline`: every job runs at once on the thread that submits it.
    private var inline: ((Job) -> Outcome)?

    public init() {}

    // MARK: Submitting

    /// Queues `job` behind the others; false, and the job dropped, once the queue is closed or
    /// stopped.
    @discardableResult
    public func submit(_ job: Job) -> Bool {
        condition.lock()
        guard state == .open else {
            condition.unlock()
            return false
        }
        if let inline {
            condition.unlock()
            Self.perform(
                job, with: inline,
                pause: {
                    Thread.sleep(forTimeInterval: $0)
                    return true
                })
            return true
        }
        waiting.append(job)
        if emptyWaiters > 0 { condition.broadcast() } else { condition.signal() }
        condition.unlock()
        return true
    }

    /// How many jobs wait for a thread now (for the metrics; stale as soon as it is read).
    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting.count
    }

    /// No job is waiting or running.
    public var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return waiting.isEmpty && running == 0
    }

    /// Waits until every job submitted so far has run, `timeout` seconds pass, the queue is
    /// stopped, or a job is pausing before another try (nothing will finish soon then); true
    /// when the queue is empty.
    @discardableResult
    public func waitUntilEmpty(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        emptyWaiters += 1
        defer { emptyWaiters -= 1 }
        while !(waiting.isEmpty && running == 0) && state != .stopped && pausing == 0 {
            guard condition.wait(until: deadline) else { break }
        }
        return waiting.isEmpty && running == 0
    }

    // MARK: Ending

    /// Takes no more jobs; the threads run what is queued, then `serve` returns.
    public func close() {
        condition.lock()
        if state == .open { state = .closed }
        condition.broadcast()
        condition.unlock()
    }

    /// Takes no more jobs and drops those not started; a pause ends, and `serve` returns once the
    /// job it runs returns.
    public func stop() {
        condition.lock()
        state = .stopped
        waiting = []
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Serving

    /// Runs the queue's jobs on the calling thread, one at a time, until it is closed and
    /// drained or stopped.
    public func serve(_ perform: (Job) -> Outcome) {
        while let job = take(upTo: 1).first {
            Self.perform(job, with: perform, pause: pause)
            finish(1)
        }
    }

    /// Runs the queue's jobs on the calling thread a batch at a time: each time, every job
    /// queued then, up to `maximumCount` (the storage writer's group commit). Returns once the
    /// queue is closed and drained or stopped.
    public func serveBatches(maximumCount: Int, _ perform: ([Job]) -> Void) {
        precondition(maximumCount >= 1, "a batch holds at least one job")
        while true {
            let batch = take(upTo: maximumCount)
            if batch.isEmpty { return }
            perform(batch)
            finish(batch.count)
        }
    }

    /// Serves the queue with `perform` on a new thread named `thread`, or, with no name, runs
    /// each job at once on the thread that submits it, pauses included (tests: the submitter is
    /// then the worker). Call once, before the first `submit`.
    public func start(thread: String?, _ perform: @escaping (Job) -> Outcome) {
        guard let thread else {
            condition.lock()
            inline = perform
            condition.unlock()
            return
        }
        // The thread holds the queue until it is stopped or closed and drained.
        nonisolated(unsafe) let perform = perform
        NamedThread.start(thread) { [self] in serve(perform) }
    }

    // MARK: Pieces

    /// Runs `job` until it is done, pausing as it asks; gives up once `pause` says the queue stopped.
    private static func perform(_ job: Job, with perform: (Job) -> Outcome, pause: (Double) -> Bool) {
        while case .again(let seconds) = perform(job) {
            guard pause(seconds) else { return }
        }
    }

    /// Waits `seconds` before a job's next try (a job submitted meanwhile does not end the wait;
    /// only the time or `stop()` does); false when the queue stopped meanwhile.
    private func pause(_ seconds: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard seconds > 0 else { return state != .stopped }
        pausing += 1
        condition.broadcast()
        let until = Date().addingTimeInterval(seconds)
        while state != .stopped && condition.wait(until: until) {}
        pausing -= 1
        return state != .stopped
    }

    /// Waits for work and takes up to `maximumCount` jobs; none once the queue is closed and
    /// drained, or stopped.
    private func take(upTo maximumCount: Int) -> [Job] {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && state == .open { condition.wait() }
        guard state != .stopped else { return [] }
        let count = min(maximumCount, waiting.count)
        let taken = Array(waiting[..<count])
        waiting.removeFirst(count)
        running += count
        return taken
    }

    /// `count` jobs taken by a thread have finished (or were given up).
    private func finish(_ count: Int) {
        condition.lock()
        running -= count
        if emptyWaiters > 0 { condition.broadcast() }
        condition.unlock()
    }
}
