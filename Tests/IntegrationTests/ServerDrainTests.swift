#if canImport(Glibc)
import Glibc
#endif
import Client
import Foundation
import Posix
import Synchronization
import Testing
import TestSupport

/// SIGTERM (systemctl stop, a deploy) against a real server process with requests in flight:
/// they finish, nothing new is taken, the rest close with SHUTTING_DOWN, and the exit is 0.
@Suite("Drain on SIGTERM")
struct ServerDrainTests {
    @Test("SIGTERM lets the registrations in the password KDF finish, refuses new connections, closes idle ones with SHUTTING_DOWN, exits 0")
    func drainWithRequestsInFlight() throws {
        let directory = TemporaryDirectory("snapshare-drain")
        let port = ServerProcess.freePort()
        let server = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port,
                                       logLevel: "info", mergingStandardError: true)
        defer { server.killHard() }
        let settings = ConnectionSettings(host: "127.0.0.1", port: port, caFile: directory.file("certs/ca.pem"))
        var homes: [TemporaryDirectory] = []
        func session() throws -> SnapshareSession {
            let home = TemporaryDirectory("snapshare-drain-home")
            homes.append(home)
            return try SnapshareSession(settings: settings, state: ClientState(directory: home.path)) { _ in }
        }
        let idle = try session()
        _ = try idle.register(username: "idle", password: "correct horse battery", classCode: "")
        // Two hashes run at a time, tens of milliseconds each: 24 keep the KDF busy well past the signal.
        let sessions = try (0..<24).map { _ in UncheckedSendable(try session()) }
        struct Finished: Sendable { var succeeded: Bool; var detail: String; var at: Date }
        let results = Mutex<[Finished]>([])
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for (index, session) in sessions.enumerated() {
            done.enter()
            NamedThread.start("drain-\(index)") {
                go.wait()
                let outcome: Finished
                do {
                    _ = try session.value.register(username: "student\(index)", password: "correct horse battery", classCode: "")
                    outcome = Finished(succeeded: true, detail: "", at: Date())
                } catch {
                    outcome = Finished(succeeded: false, detail: "\(error)", at: Date())
                }
                results.withLock { $0.append(outcome) }
                done.leave()
            }
        }
        for _ in sessions { go.signal() }
        // Long enough for every request to reach the server, far shorter than the KDF's queue.
        usleep(150_000)
        let signalled = Date()
        server.send(SIGTERM)
        usleep(50_000)
        #expect(throws: SystemError.self, "nothing new is accepted while draining") {
            try Socket.connect(host: "127.0.0.1", port: port, timeout: 2)
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        let finished = results.withLock { $0 }
        #expect(finished.count == sessions.count)
        let failures = finished.filter { !$0.succeeded }.map { $0.detail }
        #expect(failures.isEmpty, "\(failures)")
        #expect(finished.contains { $0.at > signalled }, "some registrations were still in flight at SIGTERM")
        let idleAfter = Result { () throws(ClientError) in try idle.snaps(feed: nil) }
        if case .success = idleAfter { Issue.record("the idle connection was still served after the drain") }
        #expect(server.exitStatus(within: 20) == 0)
        var log: [String] = []
        while let line = server.lines.next(timeout: 2) { log.append(line) }
        #expect(log.contains { $0.contains("shutting down: finishing requests in flight") }, "\(log)")
        #expect(log.contains { $0.hasSuffix("INFO stopped") }, "\(log)")
        #expect(!log.contains { $0.contains("still busy") }, "\(log)")

        // Every registration that was answered is stored.
        let restarted = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port)
        defer { restarted.killHard() }
        let check = try session()
        _ = try check.login(username: "student23", password: "correct horse battery")
    }
}
