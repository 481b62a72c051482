import Foundation
import TestSupport
import Testing

@testable import Server

/// `/health`'s store check on a real executor and SQLite file: an answer within the second is
/// healthy; a store that does not answer in time fails the check after that second, and later
/// checks at once while its read is still pending, so none ever queue behind it.
@Suite struct HealthProbeTests {
    @Test func aStoreBusyPastTheTimeoutFailsTheCheckWithoutQueueingMore() throws {
        let directory = TemporaryDirectory("snapshare-health")
        let storage = try StorageExecutor.sqlite(path: directory.file("health.db"), readers: 1)
        defer { storage.shutdown() }
        let probe = HealthProbe(storage: storage, logger: LogCapture().logger(), timeout: .milliseconds(300))
        #expect(probe.problem(listening: true) == nil)
        #expect(probe.problem(listening: false) == "the server is not serving (draining or stopped)")

        // The one reader is busy until released: the check's read waits behind it.
        let release = DispatchSemaphore(value: 0)
        storage.read({ _ in release.wait() }, completion: { _ in })
        let started = Date()
        #expect(probe.problem(listening: true) == "the store did not answer within 0.3 s")
        #expect(Date().timeIntervalSince(started) < 0.9)
        #expect(probe.problem(listening: true) == "the store has not answered the previous check yet")
        #expect(Date().timeIntervalSince(started) < 0.9, "at once")

        // Once the reader is free, the pending read answers, and checks pass again: a read queued
        // behind it on the one reader ends after its answer.
        release.signal()
        _ = try storage.readSync { _ in 0 }
        #expect(probe.problem(listening: true) == nil)
    }
}
