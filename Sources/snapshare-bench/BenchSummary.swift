import Foundation

/// The Markdown tables of docs/benchmarks.md, made from a folder of JSON results.
///
/// `scripts/bench.sh` stores one JSON object per run (the bench's `--json` output, or a small
/// object it writes for `openssl s_time`), named so they sort in run order, and labels the runs
/// the targets are judged on (`poll-1k`, `view`, `s_time-openssl`, ...).
struct BenchSummary {
    private let runs: [[String: Any]]

    init(folder: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
        let all = try names.map { name in
            let path = folder + "/" + name
            guard let data = FileManager.default.contents(atPath: path),
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else {
                throw BenchError("\(path) is not a JSON object")
            }
            return object
        }
        runs = Self.medians(all)
    }

    /// Runs repeated under one label become one row of per-figure medians (ops/s, each latency
    /// percentile and both CPU figures taken separately), noting every run's rate and p99: on two
    /// shared cores one run can be unlucky, and the table should not depend on which.
    private static func medians(_ all: [[String: Any]]) -> [[String: Any]] {
        var order: [String] = []
        var byLabel: [String: [[String: Any]]] = [:]
        for run in all {
            let label = run["label"] as? String ?? ""
            if byLabel[label] == nil { order.append(label) }
            byLabel[label, default: []].append(run)
        }
        return order.map { label in
            let group = byLabel[label]!
            guard group.count > 1 else { return group[0] }
            var median = group[0]
            for key in [
                "ops_per_sec", "mean_ms", "p50_ms", "p90_ms", "p99_ms", "max_ms", "server_cpu_us_per_op",
                "client_cpu_us_per_op",
            ] where group[0][key] != nil {
                let sorted = group.map { double($0, key) }.sorted()
                median[key] = sorted[sorted.count / 2]
            }
            // Failures are never a median: every run's count, and the largest memory seen.
            for key in ["errors", "double_views", "double_view_checks"] where group[0][key] != nil {
                median[key] = group.reduce(0) { $0 + int($1, key) }
            }
            if group[0]["server_rss_kb"] != nil { median["server_rss_kb"] = group.map { int($0, "server_rss_kb") }.max() }
            let runs = group.map { String(format: "%.0f/s p99 %.2f ms", double($0, "ops_per_sec"), double($0, "p99_ms")) }
            median["notes"] =
                ((median["notes"] as? [String]) ?? [])
                + ["medians of \(group.count) runs: \(runs.joined(separator: ", "))"]
            return median
        }
    }

    var markdown: String { resultsTable + "\n\n" + targetsTable }

    // MARK: Results

    private var resultsTable: String {
        var lines = [
            "| run | connections × depth | ops/s | p50 ms | p99 ms | max ms "
                + "| server CPU µs/op | client CPU µs/op | server peak RSS | errors | notes |",
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for run in runs {
            let label = string(run, "label")
            if let note = run["note"] as? String, run["available"] as? Bool == false {
                lines.append("| \(label) | | | | | | | | | | \(note) |")
                continue
            }
            let shape =
                string(run, "scenario") == "s_time"
                ? "1 (sequential)" : "\(int(run, "connections")) × \(int(run, "depth"))"
            let rss = (run["server_rss_kb"] as? Int).map { String(format: "%.1f MiB", Double($0) / 1024) } ?? ""
            let serverCPU = format(run["server_cpu_us_per_op"], "%.1f")
            lines.append(
                "| \(label) | \(shape) | \(format(run["ops_per_sec"], "%.0f")) | \(format(run["p50_ms"], "%.3f")) "
                    + "| \(format(run["p99_ms"], "%.3f")) | \(format(run["max_ms"], "%.3f")) | \(serverCPU) "
                    + "| \(format(run["client_cpu_us_per_op"], "%.1f")) | \(rss) | \(int(run, "errors")) | \(notes(run)) |")
        }
        return lines.joined(separator: "\n")
    }

    private func notes(_ run: [String: Any]) -> String {
        var parts: [String] = []
        switch string(run, "scenario") {
        case "poll", "list":
            parts.append("\(int(run, "stored_snaps")) snaps stored")
            if string(run, "scenario") == "list" { parts.append("\(int(run, "snaps_per_listing")) snaps per listing") }
            if int(run, "changed_polls") > 0 { parts.append("\(int(run, "changed_polls")) polls saw a change") }
        case "view", "mixed":
            let checks = int(run, "double_view_checks")
            parts.append("double views: \(int(run, "double_views"))" + (checks > 0 ? " (\(checks) deliberate second opens)" : ""))
        case "idle":
            parts.append(
                "\(int(run, "idle_connections")) idle connections, "
                    + "\(format(run["server_rss_per_connection_kb"], "%.1f")) KiB server RSS each (probe polls measured)")
        case "s_time":
            parts.append("openssl s_time -new against \(string(run, "target_server"))")
        case "wrk":
            parts.append("wrk against nginx serving a \(int(run, "file_bytes"))-byte file (the reference for the bytes path)")
        default:
            break
        }
        if let ratio = nginxRatio(run) { parts.append(String(format: "%.2f× nginx's server CPU", ratio)) }
        if let extra = run["notes"] as? [String] { parts += extra }
        return parts.joined(separator: "; ")
    }

    // MARK: Targets

    private var targetsTable: String {
        var lines = ["| target | measured | verdict |", "|---|---|---|"]
        func row(_ target: String, _ measured: String, _ met: Bool?) {
            lines.append("| \(target) | \(measured) | \(met.map { $0 ? "met" : "**missed**" } ?? "not measured") |")
        }
        if let poll = run("poll-1k") {
            let ops = double(poll, "ops_per_sec")
            let cpu = double(poll, "server_cpu_us_per_op")
            let p99 = double(poll, "p99_ms")
            row(
                "poll, nothing new, 50 connections: ≥ 75,000/s, ≤ 10 µs server CPU, p99 < 2 ms",
                String(format: "%.0f/s, %.1f µs, p99 %.2f ms", ops, cpu, p99), ops >= 75_000 && cpu <= 10 && p99 < 2)
        }
        if let photo = run("photo") {
            if photo["available"] as? Bool == false {
                row("photo 100 KB, 50 connections: ≥ 10,000/s, ≤ 80 µs server CPU", string(photo, "note"), nil)
            } else {
                let ops = double(photo, "ops_per_sec")
                let cpu = double(photo, "server_cpu_us_per_op")
                row(
                    "photo 100 KB, 50 connections: ≥ 10,000/s, ≤ 80 µs server CPU",
                    String(format: "%.0f/s, %.1f µs", ops, cpu), ops >= 10_000 && cpu <= 80)
            }
        }
        if let view = run("view") {
            let ops = double(view, "ops_per_sec")
            let doubles = int(view, "double_views")
            row(
                "view (claim + 100 KB), 50 connections: ≥ 5,000/s, zero double views",
                String(format: "%.0f/s, %d double views", ops, doubles), ops >= 5_000 && doubles == 0)
        }
        if let nginx = run(Self.nginxLabel), let photo = run("photo-50x1"), let view = run("view-50x1"),
            let photoRatio = nginxRatio(photo), let viewRatio = nginxRatio(view)
        {
            let doubles = int(view, "double_views")
            row(
                "photo and view, 50 × 1: server CPU per 100 KB reply ≤ 1.0× nginx's per 100 KB file in the same run, zero double views",
                String(
                    format: "photo %.2f×, view %.2f× (%.1f and %.1f µs against %.1f µs), %d double views", photoRatio, viewRatio,
                    double(photo, "server_cpu_us_per_op"), double(view, "server_cpu_us_per_op"),
                    double(nginx, "server_cpu_us_per_op"), doubles),
                photoRatio <= 1.0 && viewRatio <= 1.0 && doubles == 0)
        }
        if let post = run("post") {
            let ops = double(post, "ops_per_sec")
            row("post 100 KB, durable: ≥ 2,000/s", String(format: "%.0f/s", ops), ops >= 2_000)
        }
        if let ours = run("s_time-snapshare"), let theirs = run("s_time-openssl") {
            let a = double(ours, "ops_per_sec")
            let b = double(theirs, "ops_per_sec")
            row(
                "handshake: ≥ 90% of openssl s_server (same P-256 certificate, same s_time client)",
                String(format: "%.0f/s vs %.0f/s = %.0f%%", a, b, b > 0 ? a / b * 100 : 0), b > 0 && a >= 0.9 * b)
        }
        if let idle = run("idle") {
            let held = int(idle, "idle_connections")
            let perConnection = double(idle, "server_rss_per_connection_kb")
            let p99 = double(idle, "p99_ms")
            row(
                "idle: 10,000 TLS connections, ≤ 20 KB server RSS each, poll p99 < 5 ms meanwhile",
                String(format: "%d held, %.1f KiB each, probe p99 %.2f ms", held, perConnection, p99),
                held >= 10_000 && perConnection <= 20 && p99 < 5)
        }
        for kind in ["poll", "list"] {
            guard let small = run("\(kind)-1k"), let large = run("\(kind)-100k") else { continue }
            let a = double(small, "ops_per_sec")
            let b = double(large, "ops_per_sec")
            let change = a > 0 ? (b - a) / a * 100 : 0
            row(
                "\(kind) rate flat as data grows: within 20% at 1,000 and 100,000 snaps stored",
                String(
                    format: "%.0f/s at %d, %.0f/s at %d snaps (%+.0f%%)", a, int(small, "stored_snaps"), b,
                    int(large, "stored_snaps"), change), a > 0 && abs(change) <= 20)
        }
        return lines.joined(separator: "\n")
    }

    /// The label of the nginx reference runs (scripts/bench.sh).
    private static let nginxLabel = "nginx-100k"

    /// A bytes-path comparison run's server CPU per reply over nginx's per file, from the same
    /// sitting; nil for other runs.
    private func nginxRatio(_ run: [String: Any]) -> Double? {
        guard ["photo-50x1", "view-50x1"].contains(string(run, "label")), let nginx = self.run(Self.nginxLabel) else { return nil }
        let reference = double(nginx, "server_cpu_us_per_op")
        return reference > 0 ? double(run, "server_cpu_us_per_op") / reference : nil
    }

    // MARK: Fields

    private func run(_ label: String) -> [String: Any]? { runs.first { $0["label"] as? String == label } }
    private func string(_ run: [String: Any], _ key: String) -> String { run[key] as? String ?? "" }
    private func int(_ run: [String: Any], _ key: String) -> Int { Self.int(run, key) }
    private func double(_ run: [String: Any], _ key: String) -> Double { Self.double(run, key) }
    private static func int(_ run: [String: Any], _ key: String) -> Int { (run[key] as? NSNumber)?.intValue ?? 0 }
    private static func double(_ run: [String: Any], _ key: String) -> Double { (run[key] as? NSNumber)?.doubleValue ?? 0 }

    private func format(_ value: Any?, _ pattern: String) -> String {
        guard let number = value as? NSNumber else { return "" }
        return String(format: pattern, number.doubleValue)
    }
}
