import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Server

@Suite("Storage executor", .serialized, .timeLimit(.minutes(2)))
struct StorageExecutorTests {
    @Test("many concurrent writes all succeed and share a few commits")
    func concurrentWritesGroupCommit() throws {
        try withTemporaryDatabase { path in
            let executor = try StorageExecutor(
                path: path, readerCount: 2, maximumBatchSize: 256,
                makeStore: SQLStore.openSQLite)
            defer { executor.shutdown() }
            let gate = WriterGate(executor)
            let writes = 400
            let outcomes = Outcomes()
            let done = DispatchGroup()
            DispatchQueue.concurrentPerform(iterations: writes) { index in
                done.enter()
                executor.write(
                    { store in
                        try store.createUser(name: "user\(index)", passwordHash: "h", isAdmin: false, at: Int64(index))
                    },
                    completion: { result in
                        outcomes.record(result.map { _ in "ok" })
                        done.leave()
                    })
            }
            gate.open()
            done.wait()
            #expect(outcomes.counts == ["ok": writes])
            // The gate's batch, then 400 queued writes in batches of at most 256.
            #expect(executor.committedBatchCount == 3)
            let users = try executor.readSync { store in try store.userSummaries(now: 0).count }
            #expect(users == writes)
        }
    }

    @Test("while writes are refused (a request declared read-only runs) a write fails at once and changes nothing; reads go on")
    func refusedWritesChangeNothing() throws {
        try withTemporaryDatabase { path in
            let executor = try StorageExecutor(path: path, makeStore: SQLStore.openSQLite)
            defer { executor.shutdown() }
            StorageExecutor.$writesRefused.withValue("AdminListUsers is declared read-only") {
                let refused = #expect(throws: StoreError.self) {
                    try executor.writeSync { store in try store.createUser(name: "sneaky", passwordHash: "h", isAdmin: false, at: 1) }
                }
                #expect(refused?.message == "AdminListUsers is declared read-only")
                #expect((try? executor.readSync { store in try store.userSummaries(now: 0).count }) == 0, "reads go on")
            }
            _ = try executor.writeSync { store in try store.createUser(name: "allowed", passwordHash: "h", isAdmin: false, at: 1) }
            #expect(try executor.readSync { store in try store.userSummaries(now: 0).map(\.name) } == ["allowed"])
        }
    }

    @Test("a failing job rolls back alone and its batch neighbours commit")
    func failingJobDoesNotAffectNeighbours() throws {
        struct Planned: Error {}
        try withTemporaryDatabase { path in
            let executor = try StorageExecutor(path: path, makeStore: SQLStore.openSQLite)
            defer { executor.shutdown() }
            let gate = WriterGate(executor)
            let outcomes = OrderedOutcomes()
            let done = DispatchGroup()
            func submit(_ label: String, _ job: @escaping @Sendable (any SnapshareStore) throws -> Void) {
                done.enter()
                executor.write(job) { result in
                    outcomes.append(label, result)
                    done.leave()
                }
            }
            submit("ann") { store in _ = try store.createUser(name: "ann", passwordHash: "h", isAdmin: false, at: 1) }
            submit("bea") { store in
                _ = try store.createUser(name: "bea", passwordHash: "h", isAdmin: false, at: 1)
                throw Planned()
            }
            submit("ann again") { store in _ = try store.createUser(name: "ANN", passwordHash: "h", isAdmin: false, at: 1) }
            submit("dan") { store in _ = try store.createUser(name: "dan", passwordHash: "h", isAdmin: false, at: 1) }
            gate.open()
            done.wait()
            #expect(outcomes.labels == ["ann", "bea", "ann again", "dan"]) // completions in submission order
            #expect(outcomes.results == ["ok", "Planned()", "conflict", "ok"])
            #expect(executor.committedBatchCount == 2) // the gate's batch and one batch of four
            let names = try executor.readSync { store in try store.userSummaries(now: 0).map(\.name) }
            #expect(names == ["ann", "dan"])
        }
    }

    @Test("a batch whose COMMIT fails fails every job in it")
    func commitFailureFailsTheBatch() throws {
        try withTemporaryDatabase { path in
            let executor = try StorageExecutor(path: path, makeStore: SQLStore.openSQLite)
            defer { executor.shutdown() }
            let gate = WriterGate(executor)
            let outcomes = OrderedOutcomes()
            let done = DispatchGroup()
            let jobs: [(String, @Sendable (any SnapshareStore) throws -> Void)] = [
                ("xena", { store in _ = try store.createUser(name: "xena", passwordHash: "h", isAdmin: false, at: 1) }),
                (
                    "saboteur",
                    { store in
                        // A deferred foreign-key violation passes its savepoint and breaks only COMMIT.
                        let database = try #require((store as? SQLStore)?.sqliteDatabase)
                        try database.exec("PRAGMA defer_foreign_keys = ON")
                        try database.execute("INSERT INTO views (snap_id, viewer_id, claimed_at) VALUES (999, 999, 0)")
                    }
                ),
                ("yuri", { store in _ = try store.createUser(name: "yuri", passwordHash: "h", isAdmin: false, at: 1) }),
            ]
            for (label, job) in jobs {
                done.enter()
                executor.write(job) { result in
                    outcomes.append(label, result)
                    done.leave()
                }
            }
            gate.open()
            done.wait()
            #expect(outcomes.results == ["internalError", "internalError", "internalError"])
            #expect(try executor.readSync { store in try store.user(named: "xena") } == nil)
            // The writer carries on afterwards.
            _ = try executor.writeSync { store in try store.createUser(name: "zoe", passwordHash: "h", isAdmin: false, at: 1) }
            #expect(try executor.readSync { store in try store.user(named: "zoe") } != nil)
        }
    }

    @Test("a completion runs only once a fresh connection can see the write")
    func completionsFollowVisibility() throws {
        try withTemporaryDatabase { path in
            let executor = try StorageExecutor(path: path, makeStore: SQLStore.openSQLite)
            defer { executor.shutdown() }
            let outcomes = Outcomes()
            let done = DispatchGroup()
            for index in 0..<40 {
                done.enter()
                executor.write(
                    { store in
                        try store.createUser(name: "seen\(index)", passwordHash: "h", isAdmin: false, at: 1).name
                    },
                    completion: { result in
                        // A brand-new read-only connection, opened inside the completion.
                        let visible = (try? SQLStore.sqlite(path: path, readOnly: true).user(named: result.get())) != nil
                        outcomes.record(.success(visible ? "visible" : "invisible"))
                        done.leave()
                    })
            }
            done.wait()
            #expect(outcomes.counts == ["visible": 40])
        }
    }

    @Test("reads see committed data and cannot write")
    func readsAreReadOnly() throws {
        try withTemporaryDatabase { path in
            let executor = try StorageExecutor(path: path, readerCount: 3, makeStore: SQLStore.openSQLite)
            defer { executor.shutdown() }
            _ = try executor.writeSync { store in try store.createFeed(name: "Cats", at: 1) }
            let counts = Outcomes()
            DispatchQueue.concurrentPerform(iterations: 30) { _ in
                counts.record(Result { try executor.readSync { store in "\(try store.feedSummaries(viewerID: 0, now: 0).count)" } })
            }
            #expect(counts.counts == ["4": 30])
            #expect(throws: StoreError.self) {
                try executor.readSync { store in _ = try store.createFeed(name: "Dogs", at: 1) }
            }
        }
    }

    @Test("a reset erases the image from the files, whether it was still in the WAL or already in the database")
    func compactionErases() throws {
        try withTemporaryDatabase { path in
            let executor = try StorageExecutor.sqlite(path: path, readers: 2)
            defer { executor.shutdown() }
            for checkpointedFirst in [true, false] {
                let marker = Array("EXECUTOR-MARKER-\(UUID().uuidString)".utf8)
                try executor.writeSync { store in
                    let poster = try store.createUser(name: "poster\(checkpointedFirst)", passwordHash: "h", isAdmin: false, at: 1)
                    let feed = try #require(try store.feed(named: "Random"))
                    _ = try store.insertSnap(
                        NewSnap(
                            feedID: feed.id, posterID: poster.id,
                            image: marker + [UInt8](repeating: 3, count: 20_000),
                            sha256: [], format: .jpeg, width: 1, height: 1,
                            postedAt: 1, expiresAt: 2))
                }
                if checkpointedFirst {
                    try executor.writeSync { store in try store.compact() }
                }
                #expect(try databaseFilesContain(marker, path: path))
                // The reset compacts after its own commit: nobody has to ask.
                _ = try executor.writeSync { store in try store.resetAllFeeds() }
                #expect(try !databaseFilesContain(marker, path: path), "checkpointed first: \(checkpointedFirst)")
            }
        }
    }

    @Test("the async forms resume after the write committed")
    func asyncForms() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("snapshare-async-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let executor = try StorageExecutor.sqlite(path: directory.appendingPathComponent("a.db").path, readers: 1)
        defer { executor.shutdown() }
        let id = try await executor.write { store in try store.createFeed(name: "Async", at: 1).id }
        let found = try await executor.read { store in try store.feed(named: "async")?.id }
        #expect(found == id)
        await #expect(throws: StoreError.self) {
            try await executor.write { store in try store.createFeed(name: "ASYNC", at: 1) }
        }
    }

    @Test("shutdown finishes queued work, then refuses new work")
    func shutdownDrains() throws {
        try withTemporaryDatabase { path in
            let executor = try StorageExecutor(path: path, makeStore: SQLStore.openSQLite)
            let gate = WriterGate(executor)
            let outcomes = Outcomes()
            for index in 0..<50 {
                executor.write(
                    { store in
                        try store.createFeed(name: "feed\(index)", at: 1).name
                    }, completion: { outcomes.record($0.map { _ in "ok" }) })
            }
            // Opens the gate once shutdown has begun, that is once the executor refuses new work
            // (shutdown says nothing else; the deadline only turns a hang into a failure).
            let refusing = Atomic<Bool>(false)
            Thread {
                defer { gate.open() }
                let refused: Void? = try? eventually("shutdown to refuse new work", every: 0.005) {
                    (try? executor.readSync { _ in 0 }) == nil
                }
                refusing.store(refused != nil, ordering: .relaxed)
            }.start()
            executor.shutdown() // waits for the gate, then for all 50
            let begun = refusing.load(ordering: .relaxed)
            #expect(begun, "shutdown had begun while the writes waited")
            #expect(outcomes.counts == ["ok": 50])
            #expect(storeErrorKind { _ = try executor.writeSync { _ in 1 } } == .unavailable)
            #expect(storeErrorKind { _ = try executor.readSync { _ in 1 } } == .unavailable)
            let store = try SQLStore.sqlite(path: path, readOnly: true)
            #expect(try store.feedSummaries(viewerID: 0, now: 0).count == 53)
        }
    }

    @Test("a store that cannot open makes the executor fail to start")
    func startFailure() throws {
        try withTemporaryDatabase { path in
            try SQLStore.sqlite(path: path).sqliteDatabase!.setUserVersion(Schema.currentVersion + 1)
            #expect(storeErrorKind { _ = try StorageExecutor(path: path, makeStore: SQLStore.openSQLite) } == .unavailable)
        }
    }
}

/// Holds the writer thread inside a batch so that later writes queue up behind it.
private final class WriterGate: Sendable {
    private let release = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Submits the blocking write and returns once the writer is running it.
    init(_ executor: StorageExecutor) {
        let started = DispatchSemaphore(value: 0)
        let release = self.release
        let finished = self.finished
        executor.write(
            { _ in
                started.signal()
                release.wait()
            }, completion: { _ in finished.signal() })
        started.wait()
    }

    /// Lets the writer go on.
    func open() {
        release.signal()
    }
}

/// Tallies of results from storage threads.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var tally: [String: Int] = [:]
    func record(_ result: Result<String, any Error>) {
        let key: String
        switch result {
        case .success(let value): key = value
        case .failure(let error as StoreError): key = "\(error.kind)"
        case .failure(let error): key = "\(error)"
        }
        lock.withLock { tally[key, default: 0] += 1 }
    }
    var counts: [String: Int] { lock.withLock { tally } }
}

/// Results in completion order.
private final class OrderedOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(String, String)] = []
    func append<T>(_ label: String, _ result: Result<T, any Error>) {
        let text: String
        switch result {
        case .success: text = "ok"
        case .failure(let error as StoreError): text = "\(error.kind)"
        case .failure(let error): text = "\(error)"
        }
        lock.withLock { entries.append((label, text)) }
    }
    var labels: [String] { lock.withLock { entries.map(\.0) } }
    var results: [String] { lock.withLock { entries.map(\.1) } }
}
