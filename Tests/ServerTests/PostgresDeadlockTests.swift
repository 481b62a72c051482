import Foundation
import PostgreSQL
import Synchronization
import Testing
import TestSupport
@testable import Server

/// Two instances' transactions locking the same rows in opposite orders: PostgreSQL breaks the
/// deadlock by aborting one, and the writer runs a job so broken off once more.
@Suite("PostgreSQL deadlocks between instances", .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
struct PostgresDeadlockTests {
    static func key(_ name: String) -> ThrottleKey { ThrottleKey(kind: "login", scope: .name, name: name, address: "") }

    /// Locks `key`'s budget row (created if missing) until the surrounding transaction ends.
    static func lock(_ key: ThrottleKey, in store: any ThrottleStore) throws {
        try store.updateThrottleBudgets([key]) { budgets in
            budgets[key] = ThrottleBudget(failures: [1], lastUsed: 1)
        }
    }

    @Test("a write job PostgreSQL aborts to end a deadlock with another instance runs again and succeeds")
    func deadlockedJobRunsAgain() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let executor = try StorageExecutor.postgres(conninfo: conninfo, readers: 1)
        defer { executor.shutdown() }
        // Another instance's connection, used by its thread only. It waits long before it looks
        // for a deadlock, so the job's check (after PostgreSQL's default second) always finds it.
        let other = UncheckedSendable(try PostgresStore(conninfo: conninfo))
        try other.value.connection.execute("SET deadlock_timeout = '30s'")
        let x = Self.key("x"), y = Self.key("y")

        let otherHoldsX = DispatchSemaphore(value: 0)
        let jobHoldsY = DispatchSemaphore(value: 0)
        let otherOutcome = Mutex<String>("")
        let otherDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let outcome: String
            do {
                let store = other.value
                try store.transaction {
                    try Self.lock(x, in: store)
                    otherHoldsX.signal()
                    guard jobHoldsY.wait(timeout: .now() + 30) == .success else { throw StoreError(.internalError, "the job never ran") }
                    try Self.lock(y, in: store)
                }
                outcome = "committed"
            } catch {
                outcome = "\(error)"
            }
            otherOutcome.withLock { $0 = outcome }
            otherDone.signal()
        }
        try #require(otherHoldsX.wait(timeout: .now() + 30) == .success)
        let attempts = Atomic<Int>(0)
        try executor.writeSync { store in
            let attempt = attempts.add(1, ordering: .relaxed).newValue
            try Self.lock(y, in: store)
            if attempt == 1 { jobHoldsY.signal() }
            try Self.lock(x, in: store)
        }
        try #require(otherDone.wait(timeout: .now() + 30) == .success)
        #expect(attempts.load(ordering: .relaxed) == 2, "the job was broken off once and ran again")
        #expect(otherOutcome.withLock { $0 } == "committed")
        #expect(try executor.readSync { store in try store.throttleKeys(kind: "login", name: "x").count } == 1)
    }
}
