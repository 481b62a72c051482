import Foundation
import Posix

/// A few threads of our own that run tasks preferring them.
///
/// Request handlers, album downloads and the password KDF are `async`, but they must not depend
/// on the global cooperative pool or on Dispatch's global queues: on Linux both share one pool
/// with a thread per core, and a host process (a test runner, say) may be blocking those
/// threads. Tasks started with this executor as their preference run here, and their
/// continuations come back here; `withTaskExecutorPreference` moves a piece of work here.
///
/// The threads hold the executor until `shutdown()` lets them finish, so the executor can be
/// released at any time without a thread still starting up reading freed memory.
final class ThreadPoolExecutor: TaskExecutor, @unchecked Sendable {
    private let jobs = WorkQueue<UnownedJob>()
    /// Each thread is in it until it ends.
    private let running = DispatchGroup()

    init(threads count: Int, name: String) {
        for index in 0..<max(1, count) {
            running.enter()
            NamedThread.start("\(name)-\(index)") { [self] in work() }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.submit(UnownedJob(job))
    }

    /// Whether the calling thread is one of this pool's.
    var isCurrent: Bool {
        (Thread.current.threadDictionary[Self.poolKey] as? ObjectIdentifier) == ObjectIdentifier(self)
    }

    private static let poolKey = "snapshare.thread-pool"

    private func work() {
        Thread.current.threadDictionary[Self.poolKey] = ObjectIdentifier(self)
        defer { running.leave() }
        jobs.serve { job in
            job.runSynchronously(on: asUnownedTaskExecutor())
            return .done
        }
    }

    /// Waits until every thread of the pool has ended (after `shutdown()`), or `deadline`; whether
    /// they all have.
    func threadsEnd(by deadline: DispatchTime) -> Bool { running.wait(timeout: deadline) == .success }

    /// Lets the threads finish queued jobs and exit; safe to call more than once. A job
    /// enqueued after that never runs, so owners call this only once no more can arrive (in
    /// their `deinit`: every task holds its owner).
    func shutdown() { jobs.close() }
}
