import CommandLineParsing
import Release
import Wire

/// What one `snapshare-bench` run was asked to do, parsed from its command line.
struct BenchOptions: Sendable {
    var host = "127.0.0.1"
    var port = 7443
    var caFile: String?
    var scenario: Scenario = .poll
    var connections = 50
    /// Seconds of measured load; ignored when `operations` is set.
    var duration = 10.0
    /// Stop after this many measured operations instead of after `duration`.
    var operations: Int?
    /// Seconds of unmeasured load before the measurement starts.
    var warmup = 1.0
    var users = 50
    /// Requests in flight per connection.
    var depth = 1
    var serverPID: Int32? { serverPIDs.first }
    /// Every server process measured (`--pid`, repeatable: the instances of a cluster).
    var serverPIDs: [Int32] = []
    /// Database processes measured apart (`--database-pid`, repeatable: PostgreSQL's).
    var databasePIDs: [Int32] = []
    var json = false
    var classCode = ""
    /// Instead of a scenario: post on `--server`, watch with Poll on this other instance, and
    /// time how long each change takes to show there (`--samples` posts).
    var watchDelayServer: (host: String, port: Int)?
    var samples = 200
    /// Snaps the listed feed must hold (`list`).
    var feedSnaps = 1_000
    /// Snaps the whole server must hold before the run (filler is posted when fewer).
    var storedSnaps = 0
    /// Distinct snaps posted for `view` and `mixed` to be opened.
    var viewSnaps = 1_000
    /// Small snaps posted per second during `poll`, so some polls see a change.
    var newSnapsPerSecond = 0
    /// Bytes of the image posted by `post` and opened by `view`.
    var imageBytes = 100 * 1024
    /// File keeping the bench users' session tokens between runs.
    var sessionCache: String?
    /// A name for this run in the JSON (the suite's table uses it).
    var label: String?
    /// Instead of running: print the Markdown tables for the JSON results in this folder.
    var summarizeFolder: String?
    /// Instead of running: write a photo folder for the server's `--photos dir:FOLDER`.
    var photoFolder: String?
    /// Instead of a scenario: a hostile pattern (`--attack`, see AttackRun).
    var attack: Attack?
    /// Instead of a scenario: a class of `--users` students for `--duration` seconds (SoakRun).
    var soak = false
    /// Instead of running against a server: time full-screen sixel pictures (SixelRun).
    var sixel = false
    /// `--sixel-output DIR`: where `--sixel` keeps its pictures and every encoder's escapes.
    var sixelOutput: String?

    static let command = CommandSpec(
        "snapshare-bench",
        summary: "Load-test a running Snapshare server and report throughput and latency.",
        discussion: """
            Scenarios: poll, list, post, view, photo, handshake, idle, mixed (see docs/benchmarks.md).
            Users bench_u000... are registered through the protocol (or logged in when they exist),
            then the scenario runs on --connections TLS connections with --depth requests in flight
            each. With --pid, the server's CPU time per operation and its peak RSS come from /proc.
            Exit status 3 means a correctness failure (a snap was shown twice to one user).
            """,
        options: [
            OptionSpec(
                "--server", valueName: "HOST:PORT", help: "server address (default 127.0.0.1:7443)",
                environmentVariable: "SNAPSHARE_SERVER"),
            OptionSpec(
                "--ca", valueName: "FILE", help: "CA certificate that signed the server's (required)",
                environmentVariable: "SNAPSHARE_CA"),
            OptionSpec("--scenario", valueName: "NAME", help: "poll, list, post, view, photo, handshake, idle or mixed (default poll)"),
            OptionSpec("--connections", valueName: "C", help: "connections (default 50)"),
            OptionSpec("--duration", valueName: "SECONDS", help: "measured seconds (default 10)"),
            OptionSpec("--operations", valueName: "N", help: "stop after N measured operations instead"),
            OptionSpec("--warmup", valueName: "SECONDS", help: "unmeasured load first (default 1)"),
            OptionSpec("--users", valueName: "U", help: "distinct users (default 50)"),
            OptionSpec("--depth", valueName: "K", help: "requests in flight per connection (default 1)"),
            OptionSpec(
                "--pid", valueName: "PID", help: "server process, for CPU time and RSS from /proc (repeat for several instances)",
                isRepeatable: true),
            OptionSpec(
                "--watch-delay", valueName: "HOST:PORT",
                help: "instead of a scenario: post on --server, Poll on this other instance, time each change's arrival"),
            OptionSpec("--samples", valueName: "N", help: "posts timed by --watch-delay (default 200)"),
            OptionSpec(
                "--database-pid", valueName: "PID", help: "database process measured apart, e.g. PostgreSQL's (repeatable)",
                isRepeatable: true),
            OptionSpec(
                "--class-code", valueName: "CODE", help: "class code for registering bench users",
                environmentVariable: "SNAPSHARE_CLASS_CODE"),
            OptionSpec("--feed-snaps", valueName: "N", help: "snaps in the listed feed for list (default 1000)"),
            OptionSpec("--stored-snaps", valueName: "N", help: "post small filler snaps until the server holds N (default 0)"),
            OptionSpec("--view-snaps", valueName: "N", help: "fresh snaps posted for view and mixed (default 1000)"),
            OptionSpec("--new-snaps-per-sec", valueName: "R", help: "poll: post R small snaps a second meanwhile (default 0)"),
            OptionSpec("--image-bytes", valueName: "N", help: "size of the posted and viewed image (default 102400)"),
            OptionSpec("--session-cache", valueName: "FILE", help: "keep the bench users' sessions here between runs (no logins)"),
            OptionSpec("--label", valueName: "NAME", help: "name of this run in the JSON"),
            OptionSpec("--summarize", valueName: "DIR", help: "print Markdown tables for the *.json results in DIR, run nothing"),
            OptionSpec(
                "--write-photos", valueName: "DIR",
                help: "write 21 photos of --image-bytes and index.csv for the server's --photos dir:DIR, run nothing"),
            OptionSpec(
                "--sixel-output", valueName: "DIR",
                help: "with --sixel: keep each picture (PPM) and each encoder's escapes in DIR, to measure their error"),
            OptionSpec(
                "--attack", valueName: "NAME",
                help: "instead of a scenario: hog-list, hog-open or flood (see scripts/attack.sh; needs --pid)"),
        ],
        flags: [
            FlagSpec("--json", help: "print one JSON object instead of text"),
            FlagSpec("--sixel", help: "instead of a scenario: time a full-screen sixel picture with each encoder, no server needed"),
            FlagSpec(
                "--soak",
                help:
                    "instead of a scenario: a class of --users students, each on one connection polling once a second, "
                    + "posting, opening and coming back, for --duration seconds after --warmup counts as warm-up (scripts/soak.sh)"
            ),
        ],
        exitCodes: [
            ExitCodeSpec(0, "the run completed"),
            ExitCodeSpec(1, "the run could not be set up or the server failed"),
            ExitCodeSpec(2, "usage error"),
            ExitCodeSpec(
                3, "correctness failure: a snap was opened successfully twice by one user (--soak: anything that must hold did not)"),
        ])

    /// Parses the arguments; `.help` carries text to print.
    static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> BenchOptions? {
        let parsed: ParsedCommand
        switch try CommandLineParser(root: command).parse(arguments, environment: environment) {
        case .help(let text):
            print(text)
            return nil
        case .version:
            print(Release.versionLine(program: "snapshare-bench"))
            return nil
        case .run(let command):
            parsed = command
        }
        var options = BenchOptions()
        if let server = try parsed.hostPort("--server", defaultPort: 7443) {
            options.host = server.host
            options.port = Int(server.port)
        }
        if let other = try parsed.hostPort("--watch-delay", defaultPort: 7443) { options.watchDelayServer = (other.host, Int(other.port)) }
        if let name = parsed.string("--scenario") {
            guard let scenario = Scenario(rawValue: name) else {
                throw parsed.usageError("unknown scenario '\(name)'; one of \(Scenario.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            options.scenario = scenario
        }
        func count(_ name: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let value = try parsed.int(name) else { return nil }
            guard range.contains(value) else {
                throw parsed.usageError("\(name) must be within \(range.lowerBound)...\(range.upperBound)")
            }
            return value
        }
        func pids(_ name: String) throws(UsageError) -> [Int32] {
            var found: [Int32] = []
            for text in parsed.strings(name) {
                guard let value = Int32(text), value > 0 else { throw parsed.usageError("\(name) takes a process id, not '\(text)'") }
                found.append(value)
            }
            return found
        }
        func seconds(_ name: String, minimum: Double) throws(UsageError) -> Double? {
            guard let text = parsed.string(name) else { return nil }
            guard let value = Double(text), value >= minimum, value <= 86_400 else {
                throw parsed.usageError("\(name) takes seconds (at least \(minimum)), not '\(text)'")
            }
            return value
        }
        if let v = try count("--image-bytes", 1_024...(5 << 20)) { options.imageBytes = v }
        options.summarizeFolder = parsed.string("--summarize")
        options.photoFolder = parsed.string("--write-photos")
        options.sixel = parsed.flag("--sixel")
        options.sixelOutput = parsed.string("--sixel-output")
        if options.sixelOutput != nil && !options.sixel { throw parsed.usageError("--sixel-output goes with --sixel") }
        options.json = parsed.flag("--json")
        if options.summarizeFolder != nil || options.photoFolder != nil || options.sixel { return options }
        options.caFile = parsed.string("--ca")
        guard options.caFile != nil else { throw parsed.usageError("--ca FILE is required: the bench verifies the server") }
        if let v = try count("--connections", 1...100_000) { options.connections = v }
        if let v = try seconds("--duration", minimum: 0.1) { options.duration = v }
        options.operations = try count("--operations", 1...1_000_000_000)
        if let v = try seconds("--warmup", minimum: 0) { options.warmup = v }
        if let v = try count("--users", 1...10_000) { options.users = v }
        if let v = try count("--depth", 1...4_096) { options.depth = v }
        if let v = try count("--samples", 1...100_000) { options.samples = v }
        options.serverPIDs = try pids("--pid")
        options.databasePIDs = try pids("--database-pid")
        options.classCode = parsed.string("--class-code") ?? ""
        if let v = try count("--feed-snaps", 1...1_000_000) { options.feedSnaps = v }
        if let v = try count("--stored-snaps", 0...10_000_000) { options.storedSnaps = v }
        if let v = try count("--view-snaps", 1...1_000_000) { options.viewSnaps = v }
        if let v = try count("--new-snaps-per-sec", 0...10_000) { options.newSnapsPerSecond = v }
        if let name = parsed.string("--attack") {
            guard let attack = Attack(rawValue: name) else {
                throw parsed.usageError("unknown attack '\(name)'; one of \(Attack.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            options.attack = attack
        }
        options.soak = parsed.flag("--soak")
        options.sessionCache = parsed.string("--session-cache")
        options.label = parsed.string("--label")
        return options
    }
}
