import Foundation
import Shared
import Synchronization

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
    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    let threadCount: Int

    init(threads count: Int, name: String) {
        threadCount = max(1, count)
        for index in 0..<threadCount {
            NamedThread.start("\(name)-\(index)") { [self] in work() }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
        available.signal()
    }

    /// Whether the calling thread is one of this pool's.
    var isCurrent: Bool {
        (Thread.current.threadDictionary[Self.poolKey] as? ObjectIdentifier) == ObjectIdentifier(self)
    }

    private static let poolKey = "snapshare.thread-pool"

    private func work() {
        Thread.current.threadDictionary[Self.poolKey] = ObjectIdentifier(self)
        while true {
            available.wait()
            if stopping.load(ordering: .acquiring) && jobs.withLock({ $0.isEmpty }) { return }
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Lets the threads finish queued jobs and exit; safe to call more than once.
    func shutdown() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for _ in 0..<threadCount { available.signal() }
    }
}
