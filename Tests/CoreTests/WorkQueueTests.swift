import Foundation
import Posix
import Testing

@Suite("Work queue")
struct WorkQueueTests {
    /// What the jobs did, in order, from whichever thread ran them.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    /// Serves `queue` with `perform` on a thread of the test's own; the semaphore is signalled
    /// once `serve` has returned.
    static func serve<Job>(_ queue: WorkQueue<Job>, _ perform: @escaping @Sendable (Job) -> WorkQueue<Job>.Outcome) -> DispatchSemaphore {
        let ended = DispatchSemaphore(value: 0)
        NamedThread.start("test-serve") {
            queue.serve(perform)
            ended.signal()
        }
        return ended
    }

    @Test("jobs run one at a time in the order they were submitted, off the submitting thread")
    func jobsRunInOrder() {
        let log = Log()
        let submitter = Thread.current
        let queue = WorkQueue<Int>()
        queue.start(thread: "test-queue") { number in
            log.add(Thread.current == submitter ? "submitter" : "\(number)")
            return .done
        }
        defer { queue.stop() }
        for number in 1...20 { queue.submit(number) }
        #expect(queue.waitUntilEmpty(timeout: 30))
        #expect(log.all == (1...20).map(String.init))
    }

    @Test("a job that asks to run again runs again after its pause, and the jobs behind it wait")
    func aJobRunsAgain() {
        let log = Log()
        let tries = Log()
        let finished = DispatchSemaphore(value: 0)
        let queue = WorkQueue<String>()
        queue.start(thread: "test-queue") { name in
            log.add(name)
            if name == "steady" { finished.signal() }
            guard name == "flaky" else { return .done }
            tries.add(name)
            return tries.all.count < 3 ? .again(after: 0.05) : .done
        }
        defer { queue.stop() }
        queue.submit("flaky")
        queue.submit("steady")
        #expect(finished.wait(timeout: .now() + 30) == .success)
        #expect(log.all == ["flaky", "flaky", "flaky", "steady"])
    }

    @Test("waiting for the queue to empty stops waiting while a job pauses before another try")
    func waitingGivesUpDuringAPause() {
        let tried = DispatchSemaphore(value: 0)
        let queue = WorkQueue<Int>()
        queue.start(thread: "test-queue") { _ in
            tried.signal()
            return .again(after: 60)
        }
        defer { queue.stop() }
        queue.submit(1)
        let started = Date()
        #expect(tried.wait(timeout: .now() + 30) == .success)
        // The pause begins after the try returns; the wait is woken when it does.
        #expect(!queue.waitUntilEmpty(timeout: 30))
        #expect(Date().timeIntervalSince(started) < 10, "no waiting out a server that is down")
    }

    @Test("stopping drops the jobs that have not started and refuses new ones; the one running finishes")
    func stopDropsWhatIsQueued() {
        let log = Log()
        let running = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let queue = WorkQueue<Int>()
        let ended = Self.serve(queue) { number in
            if number == 1 {
                running.signal()
                release.wait()
            }
            log.add("\(number)")
            return .done
        }
        queue.submit(1)
        #expect(running.wait(timeout: .now() + 30) == .success)
        queue.submit(2)
        queue.submit(3)
        queue.stop()
        release.signal()
        #expect(ended.wait(timeout: .now() + 30) == .success)
        #expect(!queue.submit(4))
        #expect(log.all == ["1"])
        #expect(queue.isIdle)
    }

    @Test("stopping ends a pause at once, and the job pausing is not tried again")
    func stopEndsAPause() {
        let tries = Log()
        let tried = DispatchSemaphore(value: 0)
        let queue = WorkQueue<Int>()
        let ended = Self.serve(queue) { _ in
            tries.add("try")
            tried.signal()
            return .again(after: 600)
        }
        queue.submit(1)
        #expect(tried.wait(timeout: .now() + 30) == .success)
        queue.stop()
        #expect(ended.wait(timeout: .now() + 30) == .success)
        #expect(tries.all == ["try"])
    }

    @Test("closing lets every queued job run, then serving ends; a job submitted after is refused")
    func closeDrains() {
        let log = Log()
        let queue = WorkQueue<Int>()
        for number in 1...5 { #expect(queue.submit(number)) }
        queue.close()
        #expect(!queue.submit(6))
        let ended = Self.serve(queue) { number in
            log.add("\(number)")
            return .done
        }
        #expect(ended.wait(timeout: .now() + 30) == .success)
        #expect(log.all == ["1", "2", "3", "4", "5"])
    }

    @Test("a batch takes every job queued then, up to its maximum, in order")
    func batchesTakeWhatIsQueued() {
        let queue = WorkQueue<Int>()
        for number in 1...5 { queue.submit(number) }
        queue.close()
        var batches: [[Int]] = []
        queue.serveBatches(maximumCount: 2) { batches.append($0) }
        #expect(batches == [[1, 2], [3, 4], [5]])
    }

    @Test("several threads serve one queue and each job runs exactly once")
    func severalThreadsShareTheJobs() {
        let log = Log()
        let queue = WorkQueue<Int>()
        let servers = (0..<4).map { _ in
            Self.serve(queue) { number in
                log.add("\(number)")
                return .done
            }
        }
        for number in 1...1000 { queue.submit(number) }
        queue.close()
        for ended in servers { #expect(ended.wait(timeout: .now() + 60) == .success) }
        #expect(log.all.count == 1000)
        #expect(Set(log.all) == Set((1...1000).map(String.init)))
    }

    @Test("the count is of jobs waiting; the queue is idle only once the job running has finished")
    func countAndIdle() {
        let running = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let queue = WorkQueue<Int>()
        queue.start(thread: "test-queue") { number in
            if number == 1 {
                running.signal()
                release.wait()
            }
            return .done
        }
        defer { queue.stop() }
        #expect(queue.isIdle)
        queue.submit(1)
        #expect(running.wait(timeout: .now() + 30) == .success)
        queue.submit(2)
        #expect(queue.count == 1)
        #expect(!queue.isIdle)
        #expect(!queue.waitUntilEmpty(timeout: 0.05))
        release.signal()
        #expect(queue.waitUntilEmpty(timeout: 30))
        #expect(queue.isIdle && queue.count == 0)
    }

    @Test("without a thread a job runs at once on the submitting thread, tries again included")
    func inlineRunsAtOnce() {
        var ran: [Int] = []
        var tries = 0
        let queue = WorkQueue<Int>()
        queue.start(thread: nil) { number in
            tries += 1
            if number == 1 && tries < 2 { return .again(after: 0) }
            ran.append(number)
            return .done
        }
        queue.submit(1)
        #expect(ran == [1] && tries == 2)
        queue.submit(2)
        #expect(ran == [1, 2])
        #expect(queue.waitUntilEmpty(timeout: 1))
    }
}
