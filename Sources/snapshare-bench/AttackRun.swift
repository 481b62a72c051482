import Client
import Foundation
import Posix
import Synchronization
import TLS
import Wire

/// The hostile patterns of docs/threat-model.md, run against a real server to show what each
/// bound holds (`--attack`, driven by scripts/attack.sh). Not throughput runs: each prints what
/// the attack cost the server and what another client saw meanwhile.
enum Attack: String, CaseIterable, Sendable {
    /// Logged-in connections pipeline `--depth` listings of a `--feed-snaps` feed and never read.
    case hogList = "hog-list"
    /// Logged-in connections pipeline `--depth` opens of `--image-bytes` snaps and never read.
    case hogOpen = "hog-open"
    /// One address opens `--connections` connections that say Hello and Ping, while a client
    /// from 127.0.0.2 logs in again and again.
    case flood
}

/// What an attack cost and what a bystander saw, as text or JSON.
struct AttackReport {
    var attack: Attack
    var lines: [(String, String)] = []

    mutating func add(_ name: String, _ value: String) { lines.append((name, value)) }

    var text: String { lines.map { "\($0.0): \($0.1)" }.joined(separator: "\n") }

    var json: String {
        let fields = [("attack", "\"\(attack.rawValue)\"")] + lines.map { ($0.0, Double($0.1) != nil ? $0.1 : "\"\($0.1)\"") }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
}

enum AttackRun {
    static func run(_ attack: Attack, options: BenchOptions, log: @escaping (String) -> Void) throws -> AttackReport {
        let context = try TLSContext.client(trustRootsFile: options.caFile)
        guard let pid = options.serverPID else { throw BenchError("--attack needs --pid (the server's memory is the result)") }
        let server = ServerProbe(pid: pid)
        switch attack {
        case .hogList, .hogOpen: return try hog(attack, options: options, context: context, server: server, log: log)
        case .flood: return try flood(options: options, context: context, server: server, log: log)
        }
    }

    // MARK: Pipelining without reading

    private static func hog(
        _ attack: Attack, options: BenchOptions, context: TLSContext, server: ServerProbe,
        log: @escaping (String) -> Void
    ) throws -> AttackReport {
        var prepared = options
        prepared.scenario = attack == .hogList ? .list : .view
        prepared.viewSnaps = options.depth
        prepared.users = options.connections
        let fixture = try BenchFixture.prepare(prepared, context: context, log: log)
        let connections = try fixture.tokens.map { try FixtureConnection(options: options, context: context, token: $0) }
        func request(_ index: Int) -> any WireMessage {
            attack == .hogList ? ListSnaps(feed: BenchFixture.listFeed) : OpenSnap(snapID: fixture.viewSnapIDs[index])
        }
        // A listing each first, read in full, so the baseline holds what one reply costs.
        for connection in connections { _ = try connection.connection.roundTrip(ListSnaps(feed: BenchFixture.listFeed)) }
        let baseline = settledRSS(server)
        log("\(connections.count) connections pipeline \(options.depth) \(attack == .hogList ? "listings" : "opens") each and do not read")
        for connection in connections {
            for index in 0..<options.depth { try connection.connection.send(request(index)) }
        }
        let loaded = settledRSS(server)
        let peak = server.sample()?.peakRSSKB ?? 0
        log("reading every reply")
        var answered = 0
        var failed = 0
        for connection in connections {
            for _ in 0..<options.depth {
                let frame = try connection.connection.receive()
                if frame.type == MessageType.error.rawValue { failed += 1 } else { answered += 1 }
            }
            connection.close()
        }
        var report = AttackReport(attack: attack)
        report.add("connections", "\(connections.count)")
        report.add("pipelined_per_connection", "\(options.depth)")
        report.add(
            "replies", attack == .hogList ? "listings of a \(fixture.listFeedSnaps)-snap feed" : "opens of \(fixture.imageBytes)-byte snaps"
        )
        report.add("rss_baseline_mib", mib(baseline))
        report.add("rss_loaded_mib", mib(loaded))
        report.add("rss_peak_mib", mib(peak))
        report.add("per_connection_mib", mib((loaded - baseline) / max(1, connections.count)))
        report.add("answered", "\(answered)")
        report.add("errors", "\(failed)")
        return report
    }

    /// The server's RSS in KiB once it has stopped growing for a second and a half (at most 30 s).
    private static func settledRSS(_ server: ServerProbe) -> Int {
        let deadline = Date().addingTimeInterval(30)
        var highest = server.sample()?.rssKB ?? 0
        var stableSince = Date()
        while Date() < deadline, Date().timeIntervalSince(stableSince) < 1.5 {
            Thread.sleep(forTimeInterval: 0.2)
            let now = server.sample()?.rssKB ?? 0
            if now > highest + 64 { stableSince = Date() }
            highest = max(highest, now)
        }
        return highest
    }

    private static func mib(_ kilobytes: Int) -> String { String(format: "%.1f", Double(kilobytes) / 1024) }

    // MARK: One address against everyone

    private static func flood(
        options: BenchOptions, context: TLSContext, server: ServerProbe,
        log: @escaping (String) -> Void
    ) throws -> AttackReport {
        var prepared = options
        prepared.users = 1
        prepared.scenario = .poll
        let fixture = try BenchFixture.prepare(prepared, context: context, log: log)
        let holding = Atomic<Int>(0)
        let attempts = Atomic<Int>(0)
        let refused = Atomic<Int>(0)
        let closedByServer = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let attackers = 4
        log(
            "one address keeps opening connections, up to \(options.connections) held (Hello, then a Ping a minute), "
                + "for \(Int(options.duration)) s"
        )
        let group = DispatchGroup()
        for _ in 0..<attackers {
            group.enter()
            NamedThread.start("attacker") {
                defer { group.leave() }
                // Each attacker thread holds its own connections (they are not shared).
                var held: [ServerConnection] = []
                defer { for connection in held { connection.close() } }
                var lastPing = Date()
                while !stop.load(ordering: .relaxed) {
                    // Keep trying, as a real flood would, while holding fewer than asked.
                    if holding.load(ordering: .relaxed) < options.connections {
                        attempts.add(1, ordering: .relaxed)
                        do {
                            let connection = try ServerConnection(host: options.host, port: options.port, context: context, timeout: 10)
                            _ = try connection.hello(
                                clientName: "attacker", versions: ProtocolConstants.current...ProtocolConstants.current)
                            held.append(connection)
                            holding.add(1, ordering: .relaxed)
                        } catch {
                            refused.add(1, ordering: .relaxed)
                        }
                    } else {
                        Thread.sleep(forTimeInterval: 0.05)
                    }
                    if Date().timeIntervalSince(lastPing) > 60 {
                        lastPing = Date()
                        let before = held.count
                        held.removeAll { (try? $0.send(Ping())) == nil }
                        holding.subtract(before - held.count, ordering: .relaxed)
                        closedByServer.add(before - held.count, ordering: .relaxed)
                    }
                }
            }
        }
        // The bystander: another address logs in every quarter second while the flood goes on.
        var latencies = LatencyRecorder()
        var probeFailures = 0
        let end = Date().addingTimeInterval(options.duration)
        while Date() < end {
            let started = DispatchTime.now().uptimeNanoseconds
            do {
                let probe = try ServerConnection(host: options.host, port: options.port, context: context, timeout: 10, source: "127.0.0.2")
                _ = try probe.hello(clientName: "bystander", versions: ProtocolConstants.current...ProtocolConstants.current)
                let _: Authenticated = try ServerConnection.expect(try probe.roundTrip(Resume(token: fixture.tokens[0])))
                let _: Feeds = try ServerConnection.expect(try probe.roundTrip(ListFeeds()))
                latencies.record(nanoseconds: DispatchTime.now().uptimeNanoseconds - started)
                probe.close()
            } catch {
                probeFailures += 1
                log("bystander failed: \(error)")
            }
            Thread.sleep(forTimeInterval: 0.25)
        }
        let rss = server.sample()?.rssKB ?? 0
        let completed = holding.load(ordering: .relaxed)
        stop.store(true, ordering: .relaxed)
        group.wait()
        var report = AttackReport(attack: .flood)
        report.add("attempted", "\(attempts.load(ordering: .relaxed))")
        report.add("completed_hello", "\(completed)")
        report.add("refused", "\(refused.load(ordering: .relaxed))")
        report.add("server_rss_mib", mib(rss))
        if let summary = latencies.summary() {
            report.add("bystander_logins", "\(summary.count)")
            report.add("bystander_p50_ms", String(format: "%.2f", summary.p50))
            report.add("bystander_p99_ms", String(format: "%.2f", summary.p99))
            report.add("bystander_max_ms", String(format: "%.2f", summary.max))
        }
        report.add("bystander_failures", "\(probeFailures)")
        return report
    }
}
