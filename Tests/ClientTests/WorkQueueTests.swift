import Foundation
import Testing
@testable import Client

@Suite("Work queue")
struct WorkQueueTests {
    /// What the jobs did, in order, from whichever thread ran them.
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []
        func add(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    @Test("jobs run one at a time in the order they were submitted, off the submitting thread")
    func jobsRunInOrder() {
        let log = Log()
        let submitter = Thread.current
        let queue = WorkQueue<Int>(thread: "test-queue")
        queue.start { number in
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
        let steadyRan = DispatchSemaphore(value: 0)
        let queue = WorkQueue<String>(thread: "test-queue")
        queue.start { name in
            log.add(name)
            if name == "steady" { steadyRan.signal() }
            guard name == "flaky" else { return .done }
            tries.add(name)
            return tries.all.count < 3 ? .again(after: 0.05) : .done
        }
        defer { queue.stop() }
        queue.submit("flaky")
        queue.submit("steady")
        #expect(steadyRan.wait(timeout: .now() + 30) == .success, "the job behind ran")
        #expect(log.all == ["flaky", "flaky", "flaky", "steady"])
    }

    @Test("waiting for the queue to empty stops waiting while the job at its head pauses before another try")
    func waitingGivesUpDuringAPause() {
        let queue = WorkQueue<Int>(thread: "test-queue")
        queue.start { _ in .again(after: 60) }
        defer { queue.stop() }
        queue.submit(1)
        let started = Date()
        // Waits through the first try until its pause starts; the 30 s only keep a broken queue from hanging the run.
        #expect(!queue.waitUntilEmpty(timeout: 30))
        #expect(Date().timeIntervalSince(started) < 10, "no waiting out a server that is down")
    }

    @Test("stopping drops the jobs that have not started; the one running finishes")
    func stopDropsWhatIsQueued() {
        let log = Log()
        let running = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ran = DispatchSemaphore(value: 0)
        let queue = WorkQueue<Int>(thread: "test-queue")
        queue.start { number in
            if number == 1 {
                running.signal()
                release.wait()
            }
            log.add("\(number)")
            ran.signal()
            return .done
        }
        queue.submit(1)
        #expect(running.wait(timeout: .now() + 30) == .success)
        queue.submit(2)
        queue.submit(3)
        queue.stop()
        release.signal()
        queue.submit(4)
        #expect(ran.wait(timeout: .now() + 30) == .success, "the running job finishes")
        // What must not happen has no event: a window in which a dropped job would have run.
        #expect(ran.wait(timeout: .now() + 0.3) == .timedOut, "no job ran after the one running")
        #expect(log.all == ["1"])
    }

    @Test("without a thread a job runs at once on the submitting thread, tries again included")
    func inlineRunsAtOnce() {
        var ran: [Int] = []
        var tries = 0
        let queue = WorkQueue<Int>(thread: nil)
        queue.start { number in
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
