import Foundation
import PostgreSQL
import Synchronization
import TestSupport
import Testing

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
        let other = UncheckedSendable(try SQLStore.postgres(conninfo: conninfo))
        try other.value.postgresConnection!.execute("SET deadlock_timeout = '30s'")
        let x = Self.key("x")
        let y = Self.key("y")

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

/// PostgreSQL going away in the middle of a write batch.
@Suite("PostgreSQL connection lost mid-batch", .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
struct PostgresConnectionLossTests {
    @Test(
        """
        a connection lost inside a write batch fails every job after it and the batch; \
        none commits on a new connection, and the next batch reconnects
        """
    )
    func connectionLostInsideABatch() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let store = try SQLStore.postgres(conninfo: conninfo)
        let killer = try SQLStore.postgres(conninfo: conninfo)
        let pid = try #require(try store.postgresConnection!.queryFirst("SELECT pg_backend_pid() AS pid") { $0.int64("pid") })
        func add(_ name: String) -> Result<UserRecord, any Error> {
            Result { try store.transaction { try store.createUser(name: name, passwordHash: "h", isAdmin: false, at: 1) } }
        }
        var jobs: [Result<UserRecord, any Error>] = []
        // As the writer runs a batch: one outer transaction, each job in a savepoint.
        let batch = Result {
            try store.transaction {
                jobs.append(add("ann"))
                try killer.postgresConnection!.execute("SELECT pg_terminate_backend(\(pid)::int) AS done")
                // pg_terminate_backend only signals the backend; its end shows in pg_stat_activity.
                let gone: Void? = try? eventually("the batch's backend to end", timeout: 10) {
                    try killer.postgresConnection!.queryFirst("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = \(pid)::int") {
                        $0.int64("n")
                    } ?? 0 == 0
                }
                try #require(gone != nil, "the batch's backend is gone before the next jobs run")
                jobs.append(add("bea"))
                jobs.append(add("cid"))
            }
        }
        #expect(throws: StoreError.self) { try batch.get() }
        #expect(jobs.count == 3, "every job ran, before and after the loss")
        for job in jobs.dropFirst() {
            #expect(throws: StoreError.self, "a job after the loss failed") { try job.get() }
        }
        _ = try store.transaction { try store.createUser(name: "dan", passwordHash: "h", isAdmin: false, at: 2) }
        #expect(try store.userSummaries(now: 0).map(\.name) == ["dan"], "nothing of the lost batch was kept")
    }
}

/// PostgreSQL readers keep the executor's promise for reads, as SQLite's do.
@Suite("PostgreSQL readers", .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
struct PostgresReaderTests {
    @Test("a read job sees one snapshot of committed data, however long it runs, and cannot write")
    func readsAreOneSnapshotAndReadOnly() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let executor = try StorageExecutor.postgres(conninfo: conninfo, readers: 1)
        defer { executor.shutdown() }
        // Another instance, writing meanwhile (used by the one reader thread while this test waits).
        let other = UncheckedSendable(try SQLStore.postgres(conninfo: conninfo))
        let counts = try executor.readSync { store -> [Int] in
            let before = try store.feedSummaries(viewerID: 0, now: 0).count
            _ = try other.value.createFeed(name: "Cats", at: 1)
            return [before, try store.feedSummaries(viewerID: 0, now: 0).count]
        }
        #expect(counts[0] == counts[1], "both reads of one job see the same snapshot")
        #expect(
            try executor.readSync { store in try store.feedSummaries(viewerID: 0, now: 0).count } == counts[0] + 1,
            "the next job sees the commit")
        #expect(throws: StoreError.self) {
            try executor.readSync { store in _ = try store.createFeed(name: "Dogs", at: 1) }
        }
    }
}
