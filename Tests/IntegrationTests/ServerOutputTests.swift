import Client
import Foundation
import Server
import TestSupport
import Testing

/// The server binary run as `snapshare-server ... 2>&1 | tee server.log`: when whoever reads its
/// output goes away (Ctrl-C on tee, `| head -1`), it keeps serving and counts the lines it drops.
@Suite struct ServerOutputTests {
    /// The built server with standard output and standard error in one pipe that the test reads.
    private final class PipedServer {
        let directory = TemporaryDirectory("snapshare-piped")
        let child: RunningProcess
        private var homes: [TemporaryDirectory] = []

        init(port: Int, environment: [String: String] = [:]) throws {
            child = try Subprocess.start(
                "snapshare-server",
                [
                    "--listen", "127.0.0.1:\(port)", "--data", directory.file("data"), "--certs", directory.file("certs"),
                    "--log-level", "info",
                ], environment: environment, mergingStandardError: true)
        }

        /// A new client session (its own state folder) on `port`.
        func session(port: Int) throws -> SnapshareSession {
            let home = TemporaryDirectory("snapshare-home")
            homes.append(home)
            let settings = ConnectionSettings(host: "127.0.0.1", port: port, caFile: directory.file("certs/ca.pem"))
            return try SnapshareSession(settings: settings, state: ClientState(directory: home.path)) { _ in }
        }

        /// Registers a user (which the server logs) and returns the logged-in session.
        func register(_ username: String, port: Int) throws -> SnapshareSession {
            let session = try session(port: port)
            _ = try session.register(username: username, password: "correct horse battery", classCode: "")
            return session
        }
    }

    @Test func theServerKeepsServingAfterTheReaderOfItsLogGoesAway() throws {
        let server = try PipedServer(port: 0)
        defer { server.child.kill() }
        let listening = try #require(server.child.lines.first { $0.contains("listening on") }, "the server starts")
        let port = try #require(
            listening.split(separator: ":").last?.split(separator: " ").first.flatMap { Int($0) },
            "the port in: \(listening)")
        server.child.closeOutput()

        // Every request below writes an INFO line into the pipe nobody reads any more.
        let alice = try server.register("alice", port: port)
        _ = try alice.post(feed: "Memes", image: TestImages.sample(4))
        for name in ["bob", "carol"] { _ = try server.register(name, port: port) }

        #expect(server.child.process.isRunning, "the server is still running")
        #expect(try alice.snaps(feed: nil).snaps.count == 1, "and still answering")
        try OfflineAdmin.addAdmin(
            dataDirectory: server.directory.file("data"), username: "teacher",
            password: "correct horse battery")
        let teacher = try server.session(port: port)
        _ = try teacher.login(username: "teacher", password: "correct horse battery")
        let stats = try teacher.stats()
        let names = stats.map(\.name)
        #expect(
            names.last == "log_lines_dropped" && names.firstIndex(of: "uptime_seconds")! < names.count - 1,
            "new entries are appended after those the protocol listed first: \(names)")
        let dropped = stats.first { $0.name == "log_lines_dropped" }?.value
        #expect((dropped ?? 0) >= 4, "admin stats counts the lines it could not write: \(String(describing: dropped))")
    }

    @Test func aServerWhoseOutputIsClosedBeforeItSaysWhereItListensStillServes() throws {
        let port = ServerProcess.freePort()
        let folder = TemporaryDirectory("snapshare-piped-notify")
        let notify = try NotifySocket(path: folder.file("notify"))
        let server = try PipedServer(port: port, environment: ["NOTIFY_SOCKET": notify.path])
        defer { server.child.kill() }
        server.child.closeOutput()
        // No line says when it listens, but the service manager's socket hears READY.
        let ready = try #require(notify.next(timeout: 30), "the server says READY")
        #expect(ready.contains("READY=1"), "\(ready)")
        let session = try server.register("alice", port: port)
        _ = try session.post(feed: "Memes", image: TestImages.sample(4))
        #expect(server.child.process.isRunning)
        #expect(try session.snaps(feed: nil).snaps.count == 1)
    }
}
