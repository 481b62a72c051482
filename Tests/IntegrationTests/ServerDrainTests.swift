import Client
import Foundation
import Posix
import Server
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SIGTERM (systemctl stop, a deploy) against a real server process with requests in flight:
/// they finish, nothing new is taken, the rest close with SHUTTING_DOWN, and the exit is 0.
@Suite("Drain on SIGTERM")
struct ServerDrainTests {
    @Test(
        "SIGTERM lets the registrations in the password KDF finish, refuses new connections, closes idle ones with SHUTTING_DOWN, exits 0")
    func drainWithRequestsInFlight() throws {
        let directory = TemporaryDirectory("snapshare-drain")
        let port = ServerProcess.freePort()
        let server = try ServerProcess(
            dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port,
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
        // An admin's stats count the requests the server has taken, each stats request included.
        try OfflineAdmin.addAdmin(
            dataDirectory: directory.file("data"), username: "teacher", password: "correct horse battery", database: nil)
        let counter = try session()
        _ = try counter.login(username: "teacher", password: "correct horse battery")
        func requestsTaken() throws -> Int64 {
            let stats = try counter.stats()
            guard let requests = stats.first(where: { $0.name == "requests" }) else {
                throw ProcessError("no requests in the stats: \(stats)")
            }
            return requests.value
        }
        // Two hashes run at a time, tens of milliseconds each: 24 keep the KDF busy well past the signal.
        let sessions = try (0..<24).map { _ in UncheckedSendable(try session()) }
        struct Finished: Sendable {
            var succeeded: Bool
            var detail: String
            var at: Date
        }
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
        let before = try requestsTaken()
        for _ in sessions { go.signal() }
        // Every registration has reached the server, most of them still queued for the KDF.
        var asked: Int64 = 0
        try eventually("the \(sessions.count) registrations to reach the server", every: 0.005) {
            asked += 1
            return try requestsTaken() - before - asked >= Int64(sessions.count)
        }
        let signalled = Date()
        server.send(SIGTERM)
        var log: [String] = []
        let draining = server.lines.first {
            log.append($0)
            return $0.contains("shutting down: finishing requests in flight")
        }
        #expect(draining != nil, "\(log)")
        // The loop closes the listener a moment after that line, and nothing says when it has.
        try eventually("new connections to be refused") {
            guard let fd = try? Socket.connect(host: "127.0.0.1", port: port, timeout: 2) else { return true }
            Syscall.close(fd)
            return false
        }
        let refused = Date()
        #expect(throws: SystemError.self, "nothing new is accepted while draining") {
            try Socket.connect(host: "127.0.0.1", port: port, timeout: 2)
        }
        #expect(done.wait(timeout: .now() + 30) == .success)
        let finished = results.withLock { $0 }
        #expect(finished.count == sessions.count)
        let failures = finished.filter { !$0.succeeded }.map { $0.detail }
        #expect(failures.isEmpty, "\(failures)")
        #expect(finished.contains { $0.at > signalled }, "some registrations were still in flight at SIGTERM")
        #expect(finished.contains { $0.at > refused }, "new connections were refused while registrations were in flight")
        let idleAfter = Result { () throws(ClientError) in try idle.snaps(feed: nil) }
        if case .success = idleAfter { Issue.record("the idle connection was still served after the drain") }
        #expect(server.exitStatus(within: 20) == 0)
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
