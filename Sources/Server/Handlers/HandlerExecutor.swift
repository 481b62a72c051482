import Foundation
import Synchronization

/// The threads request handlers run on.
///
/// Handlers are `async` (they await storage and the password KDF), but they must not depend on
/// the global cooperative pool: it has one thread per core, and a host process (a test runner,
/// say) may be blocking those threads. Tasks started with this executor as their preference run
/// here, and their continuations come back here.
final class HandlerExecutor: TaskExecutor, @unchecked Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private var threads: [Thread] = []

    init(threads count: Int, name: String = "snapshare-handler") {
        for index in 0..<max(1, count) {
            let thread = Thread { [unowned self] in self.work() }
            thread.name = "\(name)-\(index)"
            threads.append(thread)
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
        available.signal()
    }

    private func work() {
        while true {
            available.wait()
            if stopping.load(ordering: .acquiring) && jobs.withLock({ $0.isEmpty }) { return }
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Lets the threads finish queued jobs and exit.
    func shutdown() {
        stopping.store(true, ordering: .releasing)
        for _ in threads { available.signal() }
    }
}
