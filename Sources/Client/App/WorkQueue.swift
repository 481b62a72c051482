import Foundation
import Posix

/// Jobs run one at a time and in order by a thread of our own, off the screen's thread. A job
/// stays at the head of the queue until `perform` says it is done, so it can be tried again
/// after a pause (a reconnect), and "empty" means every job asked for has run.
///
/// Made without a thread name (tests), it runs each job at once on the thread that submits it,
/// pauses included: the submitter is then the worker.
final class WorkQueue<Job>: @unchecked Sendable {
    /// What became of the job at the head.
    enum Outcome: Equatable {
        /// It ran: take it off the queue.
        case done
        /// Run it again after this many seconds (0: at once); `stop()` ends the pause.
        case again(after: TimeInterval)
    }

    private var perform: ((Job) -> Outcome)?
    private let condition = NSCondition()
    /// Guarded by `condition`; the head is the job running (or pausing) now.
    private var jobs: [Job] = []
    private var stopped = false
    /// The head is waiting to be tried again.
    private var pausing = false
    private let inline: Bool

    private let thread: String?

    /// A queue whose jobs will run on a thread named `thread`, or at once on the submitter's
    /// thread when `thread` is nil; nothing runs before `start`.
    init(thread: String?) {
        self.thread = thread
        inline = thread == nil
    }

    /// Starts running the jobs with `perform` (an owner can make the queue before it can
    /// hand out itself). Call once, before the first `submit`.
    func start(_ perform: @escaping (Job) -> Outcome) {
        self.perform = perform
        if let thread { NamedThread.start(thread) { [self] in work() } }
    }

    /// Queues `job` behind the others; dropped once the queue is stopped.
    func submit(_ job: Job) {
        if inline, let perform {
            while case .again(let pause) = perform(job) { Thread.sleep(forTimeInterval: pause) }
            return
        }
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        jobs.append(job)
        // The worker and `waitUntilEmpty` both wait on `condition`.
        condition.broadcast()
    }

    /// Waits until every job submitted so far has run, `timeout` seconds pass, the queue is
    /// stopped, or the job at the head is pausing before another try (nothing will finish
    /// soon then); true when the queue is empty.
    @discardableResult
    func waitUntilEmpty(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while !jobs.isEmpty && !stopped && !pausing {
            guard condition.wait(until: deadline) else { break }
        }
        return jobs.isEmpty
    }

    /// No job is waiting or running.
    var isIdle: Bool {
        condition.lock()
        defer { condition.unlock() }
        return jobs.isEmpty
    }

    /// Drops the jobs not started and ends the thread once the job it runs returns.
    func stop() {
        condition.lock()
        stopped = true
        jobs = []
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        // Set before the thread started, never changed.
        guard let perform else { return }
        while let job = head() {
            switch perform(job) {
            case .done:
                condition.lock()
                if !stopped { jobs.removeFirst() }
                condition.broadcast()
                condition.unlock()
            case .again(let pause) where pause > 0:
                condition.lock()
                pausing = true
                condition.broadcast()
                // A job submitted meanwhile wakes the condition too: only the time or `stop()` ends the pause.
                let until = Date().addingTimeInterval(pause)
                while !stopped && condition.wait(until: until) {}
                pausing = false
                condition.unlock()
            case .again:
                continue
            }
        }
    }

    /// Waits for a job and returns the head without taking it off; nil once stopped.
    private func head() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !stopped { condition.wait() }
        return stopped ? nil : jobs[0]
    }
}
