import Foundation
import Testing

@testable import Server

@Suite("Thread pool executor")
struct ThreadPoolExecutorTests {
    @Test("work that prefers the pool runs on the pool's own threads")
    func runsOnItsOwnThreads() async {
        let pool = ThreadPoolExecutor(threads: 2, name: "test-pool")
        defer { pool.shutdown() }
        #expect(await Task(executorPreference: pool) { pool.isCurrent }.value)
        for _ in 0..<20 {
            #expect(await withTaskExecutorPreference(pool) { pool.isCurrent })
        }
        #expect(!pool.isCurrent)
    }

    @Test("a pool released right after it is made lets its threads start and end without a trap")
    func releasedAtOnce() {
        // Threads that start after their pool is gone once read freed memory and stopped the
        // whole process; run it often enough that a slow thread start is certain to happen.
        for _ in 0..<300 {
            let pool = ThreadPoolExecutor(threads: 3, name: "short-lived")
            pool.shutdown()
            pool.shutdown()
        }
    }

    @Test("work queued before shutdown still runs, and then every thread leaves")
    func queuedWorkFinishes() async {
        // Many small rounds: a thread that used up a wake-up without taking a job once waited
        // forever after shutdown.
        var pools: [ThreadPoolExecutor] = []
        for _ in 0..<200 {
            let pool = ThreadPoolExecutor(threads: 2, name: "draining")
            let done = Tally()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask(executorPreference: pool) { done.add() }
                }
                pool.shutdown()
                await group.waitForAll()
            }
            #expect(done.value == 8)
            pools.append(pool)
        }
        // The deadline only turns a thread that never leaves into a failure.
        let deadline = DispatchTime.now() + 60
        let kept = pools.filter { !$0.threadsEnd(by: deadline) }.count
        #expect(kept == 0, "\(kept) pools kept a thread")
    }

    @Test("the password KDF hashes and verifies, and an unknown user never verifies")
    func passwordWork() async throws {
        let work = PasswordWork()
        let encoded = try await work.hash("correct horse")
        #expect(await work.verify("correct horse", encoded: encoded))
        #expect(!(await work.verify("wrong horse", encoded: encoded)))
        #expect(!(await work.verify("correct horse", encoded: nil)))
    }
}
