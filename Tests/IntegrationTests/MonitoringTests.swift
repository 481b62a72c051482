import Client
import CommandLineParsing
import Foundation
import Posix
import Server
import TestSupport
import Testing

/// `--metrics`: GET /metrics and GET /health over plain HTTP against a real server, and
/// `--log-format json` on its log.
@Suite struct MonitoringTests {
    private static let anyPort = HostPort(host: "127.0.0.1", port: 0)

    /// The value of the sample written exactly as `series` (`name{labels}`), or nil.
    private func sample(_ body: String, _ series: String) -> Double? { PlainHTTP.sample(body, series) }

    private func metricsPort(_ server: TestServer) throws -> Int { try #require(server.server.metricsPort) }

    @Test func requestsViewsAndPostsShowInTheMetricsWhichPromtoolAccepts() throws {
        let server = try TestServer { $0.metricsAddress = Self.anyPort }
        let port = try metricsPort(server)
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let image = TestImages.sample(3)
        let snap = try alice.post(feed: "Memes", image: image)
        _ = try bob.open(snapID: snap.id)
        #expect(clientError { _ = try bob.open(snapID: snap.id) }?.serverCode == .alreadyViewed)

        let response = try PlainHTTP.get(port: port, "/metrics")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let body = response.body
        #expect(sample(body, #"snapshare_requests_total{type="OpenSnap",result="ok"}"#) == 1)
        #expect(sample(body, #"snapshare_requests_total{type="OpenSnap",result="ALREADY_VIEWED"}"#) == 1)
        #expect(sample(body, #"snapshare_requests_total{type="Register",result="ok"}"#) == 2)
        #expect(sample(body, #"snapshare_snap_views_total{result="claimed"}"#) == 1)
        #expect(sample(body, #"snapshare_snap_views_total{result="already_viewed"}"#) == 1)
        #expect(sample(body, "snapshare_snaps_posted_total") == 1)
        #expect(sample(body, "snapshare_snap_stored_bytes_total") == Double(image.count))
        #expect(sample(body, #"snapshare_request_duration_seconds_bucket{type="OpenSnap",le="+Inf"}"#) == 2)
        #expect(sample(body, #"snapshare_request_duration_seconds_count{type="OpenSnap"}"#) == 2)
        #expect((sample(body, "snapshare_store_commit_duration_seconds_count") ?? 0) >= 1)
        #expect((sample(body, "snapshare_connections_accepted_total") ?? 0) >= 2)
        #expect((sample(body, "snapshare_certificate_expiry_seconds") ?? 0) > 86_400, "the generated certificate has time left")
        #expect((sample(body, "snapshare_uptime_seconds") ?? -1) >= 0)
        // The loop counts its connections by state every 250 ms: the gauge catches up by itself.
        func loggedIn() throws -> Double {
            sample(try PlainHTTP.get(port: port, "/metrics").body, #"snapshare_connections{state="logged_in"}"#) ?? 0
        }
        try eventually("the gauge of logged-in connections to count alice and bob", every: 0.05) { try loggedIn() >= 2 }
        #expect(try loggedIn() >= 2)

        let promtool = try #require(
            ["/usr/bin/promtool", "/usr/local/bin/promtool"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "promtool is not installed: apt-get install prometheus (.ci/run installs it)")
        let check = try Subprocess.runTool(promtool, ["check", "metrics"], stdin: body)
        #expect(check.status == 0, "promtool check metrics: \(check.stdout)\(check.stderr)")
    }

    @Test func wrongPasswordsAndTheThrottlesRefusalShowByResult() throws {
        let server = try TestServer { $0.metricsAddress = Self.anyPort }
        let port = try metricsPort(server)
        _ = try server.registeredSession("alice")
        let (guesser, _) = try server.session()
        var codes: [String] = []
        for _ in 0..<6 {
            codes.append(clientError { _ = try guesser.login(username: "alice", password: "not her password") }?.serverCode?.name ?? "none")
        }
        #expect(codes == Array(repeating: "BAD_CREDENTIALS", count: 5) + ["RATE_LIMITED"])
        let body = try PlainHTTP.get(port: port, "/metrics").body
        #expect(sample(body, #"snapshare_requests_total{type="Login",result="BAD_CREDENTIALS"}"#) == 5)
        #expect(sample(body, #"snapshare_requests_total{type="Login",result="RATE_LIMITED"}"#) == 1)
        #expect(sample(body, #"snapshare_throttle_refusals_total{throttle="login"}"#) == 1)
    }

    @Test func albumDownloadsAndPurgesShowInTheMetrics() throws {
        let server = try TestServer { $0.metricsAddress = Self.anyPort }
        let port = try metricsPort(server)
        let alice = try server.registeredSession("alice")
        let pin = try alice.addPin(latitude: 48.8566, longitude: 2.3522)
        #expect(try PinRequests(session: alice).settled(pin.id).state == .ready)
        try server.purgeExpired()
        // The download's task ends a moment after the album turns ready, and says so only here.
        let body = try eventually("the album download to count as finished", every: 0.05) { () throws -> String? in
            let body = try PlainHTTP.get(port: port, "/metrics").body
            return sample(body, "snapshare_album_downloads_finished_total") == 1 ? body : nil
        }
        #expect(sample(body, "snapshare_album_downloads_started_total") == 1)
        #expect(sample(body, "snapshare_album_downloads_finished_total") == 1)
        #expect(sample(body, "snapshare_album_downloads_running") == 0)
        #expect(sample(body, "snapshare_purges_total") == 2, "the one at start and this one")
        #expect(sample(body, "snapshare_purge_failures_total") == 0)
        #expect(sample(body, #"snapshare_requests_total{type="AddPin",result="ok"}"#) == 1)
    }

    @Test func healthIsOkWhileTheStoreAnswersAndOtherRequestsAreRefused() throws {
        let server = try TestServer { $0.metricsAddress = Self.anyPort }
        let port = try metricsPort(server)
        let health = try PlainHTTP.get(port: port, "/health")
        #expect(health.status == 200 && health.body == "ok\n")
        #expect(try PlainHTTP.exchange(port: port, "garbage\r\n\r\n").status == 400)
        #expect(
            try PlainHTTP.exchange(port: port, "GET /metrics HTTP/1.1\r\nX: " + String(repeating: "x", count: 9000) + "\r\n\r\n").status
                == 400)
        #expect(try PlainHTTP.get(port: port, "/nothing-here").status == 404)
        #expect(try PlainHTTP.exchange(port: port, "POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n").status == 405)
        // A peer that sends half a request and waits holds the listener for its deadline at most.
        let silent = try Socket.connect(host: "127.0.0.1", port: port, timeout: 5)
        defer { Syscall.close(silent) }
        try Syscall.sendAll(silent, Array("GET /health HTTP/1.1\r\n".utf8))
        let started = Date()
        #expect(try PlainHTTP.get(port: port, "/health").status == 200)
        #expect(Date().timeIntervalSince(started) < 4)
        server.stop()
        #expect((try? PlainHTTP.get(port: port, "/health")) == nil, "stopped with the server")
    }

    @Test func theCertificateExpiryFollowsTheCertificateAReloadServes() throws {
        let directory = TemporaryDirectory("snapshare-expiry")
        func issue(_ name: String, days: Int) throws {
            let made = try Subprocess.runTool(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "\(days)",
                    "-subj", "/CN=localhost", "-keyout", directory.file(name + ".key"), "-out", directory.file(name + ".pem"),
                ])
            try #require(made.status == 0, "\(made.stderr)")
        }
        try issue("month", days: 30)
        try issue("quarter", days: 90)
        let server = try TestServer {
            $0.tlsCertificateFile = directory.file("month.pem")
            $0.tlsKeyFile = directory.file("month.key")
            $0.metricsAddress = Self.anyPort
        }
        let port = try metricsPort(server)
        func daysLeft() throws -> Double {
            try #require(sample(try PlainHTTP.get(port: port, "/metrics").body, "snapshare_certificate_expiry_seconds")) / 86_400
        }
        #expect(abs(try daysLeft() - 30) < 0.1)
        var renewed = server.configuration
        renewed.tlsCertificateFile = directory.file("quarter.pem")
        renewed.tlsKeyFile = directory.file("quarter.key")
        server.server.reload(renewed, changedOptions: ["tls-cert", "tls-key"])
        #expect(abs(try daysLeft() - 90) < 0.1, "the reloaded certificate's")
    }

    @Test func healthTurns503WhenTheServerDrainsSoALoadBalancerSendsNoOneNew() throws {
        let server = try TestServer { $0.metricsAddress = Self.anyPort }
        let port = try metricsPort(server)
        #expect(try PlainHTTP.get(port: port, "/health").status == 200)
        _ = server.server.drain(timeoutMilliseconds: 1_000)
        let draining = try PlainHTTP.get(port: port, "/health")
        #expect(draining.status == 503 && draining.body.contains("draining"), "\(draining.status) \(draining.body)")
    }

    @Test func healthTurns503WithinSecondsWhenPostgreSQLStopsAndOkWhenItIsBack() throws {
        let cluster = try PostgresCluster()
        let (conninfo, _) = try cluster.makeDatabase()
        let log = LogCapture()
        let server = try TestServer(log: log) {
            $0.database = conninfo
            $0.metricsAddress = Self.anyPort
        }
        let port = try metricsPort(server)
        #expect(try PlainHTTP.get(port: port, "/health").status == 200)
        try cluster.stopServer()
        let started = Date()
        let down = try PlainHTTP.get(port: port, "/health")
        #expect(down.status == 503, "\(down.body)")
        #expect(Date().timeIntervalSince(started) < 3)
        #expect(try PlainHTTP.get(port: port, "/health").status == 503, "and stays so while PostgreSQL is down")
        #expect(!down.body.isEmpty && !down.body.contains("host="), "a short reason, no connection string: \(down.body)")
        try cluster.startServer()
        // The store finds PostgreSQL back on its next use: asking again is how anyone learns it.
        let status = try? eventually("GET /health to answer 200 again", every: 0.2) { () -> Int? in
            let status = (try? PlainHTTP.get(port: port, "/health").status) ?? 0
            return status == 200 ? status : nil
        }
        #expect(status == 200, "healthy again once PostgreSQL is back")
        #expect(log.lines(containing: "health check failing").count == 1, "logged when it turns, not at every check")
        #expect(log.lines(containing: "health check passing again").count == 1)
        server.stop()
    }

    @Test func jsonLogLinesParseAndCarryTimeLevelAndMessage() throws {
        let log = LogCapture()
        let server = try TestServer(log: log) { $0.logFormat = .json }
        let alice = try server.registeredSession("alice", password: "a \"quoted\" secret\\")
        _ = try alice.post(feed: "Memes", image: TestImages.sample(2))
        let lines = log.all
        #expect(lines.contains { $0.contains("posted snap") })
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "JSON: \(line)")
            let time = try #require(object["time"] as? String)
            #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "RFC 3339 UTC with milliseconds: \(time)")
            #expect(["debug", "info", "warning", "error"].contains(object["level"] as? String ?? ""))
            #expect(object["message"] is String)
            #expect(!line.contains("quoted"), "never the password")
        }
    }

    @Test func theServerPrintsWhereMetricsAreAndABusyMetricsPortIsAClearStartError() throws {
        let directory = TemporaryDirectory("snapshare-metrics")
        let busy = try Socket.listen(host: "127.0.0.1", port: 0)
        defer { Syscall.close(busy) }
        let refused = try Subprocess.run(
            "snapshare-server",
            [
                "--listen", "127.0.0.1:0", "--data", directory.file("data"), "--certs", directory.file("certs"),
                "--metrics", "127.0.0.1:\(Socket.localPort(busy))",
            ], timeout: 30)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot listen for --metrics on 127.0.0.1:\(Socket.localPort(busy))"), "\(refused.stderr)")

        let server = try Subprocess.start(
            "snapshare-server",
            [
                "--listen", "127.0.0.1:0", "--data", directory.file("data"), "--certs", directory.file("certs"), "--metrics", "127.0.0.1:0",
            ])
        defer { server.kill() }
        let line = try #require(server.lines.first { $0.hasPrefix("  metrics: http://127.0.0.1:") }, "the start-up line")
        let port = try #require(line.wholeMatch(of: /\s+metrics: http:\/\/127\.0\.0\.1:(\d+)\/metrics/).flatMap { Int($0.1) }, "\(line)")
        #expect(try PlainHTTP.get(port: port, "/health").status == 200)
        let usage = try Subprocess.run("snapshare-server", ["--help"])
        #expect(usage.stdout.contains("--metrics HOST:PORT") && usage.stdout.contains("--log-format FORMAT"))
    }
}
