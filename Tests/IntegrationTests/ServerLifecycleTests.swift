import Foundation
import Posix
import Server
import TestSupport
import Testing

@Suite("Server lifecycle")
struct ServerLifecycleTests {
    private func configuration(_ directory: TemporaryDirectory) -> ServerConfiguration {
        var config = ServerConfiguration()
        config.port = 0
        config.dataDirectory = directory.path + "/data"
        config.certificatesDirectory = directory.path + "/certs"
        return config
    }

    @Test func aSecondServerOnTheSamePortSaysAnotherIsProbablyRunning() throws {
        let first = try TestServer()
        let directory = TemporaryDirectory("snapshare-second")
        var config = ServerConfiguration()
        config.port = first.port
        config.dataDirectory = directory.path + "/data"
        config.certificatesDirectory = directory.path + "/certs"
        let second = try SnapshareServer(configuration: config, logger: Logger(level: .error))
        do {
            try second.start()
            Issue.record("two servers listened on one port")
        } catch {
            #expect("\(error)".contains("already in use. Another snapshare-server is probably running there"), "\(error)")
        }
    }

    @Test("a server released without stop() stops itself: its port closes")
    func releasedServerStops() throws {
        let directory = TemporaryDirectory("snapshare-lifecycle")
        var port = 0
        do {
            let server = try SnapshareServer(configuration: configuration(directory), logger: Logger(level: .error))
            port = try server.start()
            let fd = try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)
            Syscall.close(fd)
        }
        #expect(throws: SystemError.self, "nobody listens once the server is gone") {
            try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)
        }
    }

    @Test("stop() twice, and a server that never started, are both fine; a stopped one cannot start again")
    func stopIsIdempotent() throws {
        let directory = TemporaryDirectory("snapshare-lifecycle")
        let server = try SnapshareServer(configuration: configuration(directory), logger: Logger(level: .error))
        server.stop()
        server.stop()
        #expect(throws: ConfigurationError.self) { try server.start() }
        let started = try SnapshareServer(configuration: configuration(directory), logger: Logger(level: .error))
        let port = try started.start()
        started.stop()
        started.stop()
        #expect(throws: SystemError.self) { try Socket.connect(host: "127.0.0.1", port: port, timeout: 5) }
    }

    @Test("a server stopped while logins are in the password KDF lets go of everything afterwards")
    func stopDuringLogins() throws {
        for round in 0..<3 {
            var server: TestServer? = try TestServer()
            weak let albums = server?.server.albums
            weak let snapshare = server?.server
            let sessions = try (0..<8).map { _ in try server!.session() }
            let before = server!.server.metrics.requestCount
            let finished = DispatchGroup()
            for (index, (session, _)) in sessions.enumerated() {
                nonisolated(unsafe) let session = session
                finished.enter()
                NamedThread.start("register-\(index)") {
                    _ = try? session.register(username: "user\(round)x\(index)", password: "correct horse battery", classCode: "")
                    finished.leave()
                }
            }
            // Stop once every register has reached the server: two hash at a time, so most wait
            // in the KDF. The count of requests taken is the only sign of their arrival.
            try eventually("the 8 registrations to reach the server", every: 0.001) { server!.server.metrics.requestCount >= before + 8 }
            server!.stop()
            #expect(finished.wait(timeout: .now() + 60) == .success, "every client got an answer or a closed connection")
            server = nil
            // The requests finish after the stop and let go of the handler, which holds the
            // album worker: once it is gone, nothing of the server is held any more. Nothing
            // announces the last release.
            try? eventually("round \(round): the stopped server to be let go", every: 0.01) { albums == nil && snapshare == nil }
            #expect(snapshare == nil && albums == nil, "round \(round): the stopped server is still held")
        }
    }
}

/// A client whose connection is lost (a restart, an instance behind a load balancer dying).
@Suite("Reconnecting clients")
struct ReconnectingClientTests {
    @Test(
        """
        a listing after a restart goes through on a new connection with the login resumed; \
        a post is never repeated, and the next one starts on a new connection
        """
    )
    func safeRequestsReconnect() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let snap = try alice.post(feed: "Memes", image: TestImages.sample(1))
        try server.restart()
        #expect(try alice.snaps(feed: nil).snaps.map(\.id) == [snap.id], "read again over a new connection")
        #expect(try alice.whoAmI().username == "alice", "the login was resumed, not asked for again")
        try server.restart()
        let lost = clientError { _ = try alice.post(feed: "Memes", image: TestImages.sample(2)) }
        #expect(lost?.isConnectionLoss == true, "a post is not sent twice: \(String(describing: lost))")
        #expect(try alice.snaps(feed: nil).snaps.map(\.id) == [snap.id], "and the lost post is not there")
        // After a lost post the next request, a post too, starts on a new connection at once.
        try server.restart()
        #expect(clientError { _ = try alice.post(feed: "Memes", image: TestImages.sample(2)) }?.isConnectionLoss == true)
        let next = try alice.post(feed: "Memes", image: TestImages.sample(3))
        #expect(try alice.snaps(feed: nil).snaps.map(\.id) == [next.id, snap.id])
    }
}
