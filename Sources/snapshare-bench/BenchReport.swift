import Foundation
import JSON

/// The outcome of one bench run, as text for people or one JSON object for scripts.
struct BenchReport {
    var options: BenchOptions
    /// Why the scenario did not run, when it could not.
    var unavailable: String?
    var notes: [String] = []
    var seconds = 0.0
    var statistics = RunStatistics()
    var serverAtStart: ProcessSample?
    var serverAtEnd: ProcessSample?
    var databaseAtStart: ProcessSample?
    var databaseAtEnd: ProcessSample?
    var clientCPUMicroseconds = 0.0
    /// Server memory with only the probe, half the idle connections, and all of them.
    var idleMarks: [IdleMark] = []
    var storedSnaps = 0
    var listFeedSnaps = 0
    var imageBytes = 0

    init(options: BenchOptions) { self.options = options }

    var operations: Int { statistics.operations }
    var opsPerSecond: Double { seconds > 0 ? Double(operations) / seconds : 0 }

    /// Server CPU time (all threads) per measured operation.
    var serverCPUPerOperation: Double? {
        guard let start = serverAtStart, let end = serverAtEnd, operations > 0 else { return nil }
        return (end.cpuMicroseconds - start.cpuMicroseconds) / Double(operations)
    }

    /// The database processes' CPU time per measured operation (`--database-pid`).
    var databaseCPUPerOperation: Double? {
        guard let start = databaseAtStart, let end = databaseAtEnd, operations > 0 else { return nil }
        return (end.cpuMicroseconds - start.cpuMicroseconds) / Double(operations)
    }

    var idleHeld: Int { idleMarks.last?.connections ?? 0 }

    /// The server's RSS growth per idle connection over the second half of them. The first half
    /// may partly reuse memory the server had freed before (sign-in's scrypt buffers, say), so the
    /// marginal cost is read where that pool is used up.
    var rssPerIdleConnection: Double? {
        guard idleMarks.count == 3, let half = idleMarks[1].server, let full = idleMarks[2].server,
            idleMarks[2].connections > idleMarks[1].connections
        else { return nil }
        return Double(full.rssKB - half.rssKB) / Double(idleMarks[2].connections - idleMarks[1].connections)
    }

    /// The server's RSS growth per idle connection from the probe-only baseline to all of them.
    var rssPerIdleConnectionAverage: Double? {
        guard idleMarks.count == 3, let base = idleMarks[0].server, let full = idleMarks[2].server,
            idleMarks[2].connections > 0
        else { return nil }
        return Double(full.rssKB - base.rssKB) / Double(idleMarks[2].connections)
    }

    // MARK: JSON

    var json: String {
        var object: [String: Any] = [
            "scenario": options.scenario.rawValue,
            "available": unavailable == nil,
            "connections": options.connections,
            "depth": options.depth,
            "users": options.users,
            "duration_s": round3(seconds),
            "operations": operations,
            "ops_per_sec": round3(opsPerSecond),
            "errors": statistics.errorCount,
            "errors_by_code": statistics.errors,
            "lost_requests": statistics.lostRequests,
            "double_views": statistics.doubleViews,
            "double_view_checks": statistics.doubleViewChecks,
            "client_cpu_us_per_op": operations > 0 ? round3(clientCPUMicroseconds / Double(operations)) : 0,
            "stored_snaps": storedSnaps,
            "label": options.label ?? options.scenario.rawValue,
        ]
        let all = statistics.allLatencies.summary()
        object["mean_ms"] = round3(all?.mean ?? 0)
        object["p50_ms"] = round3(all?.p50 ?? 0)
        object["p90_ms"] = round3(all?.p90 ?? 0)
        object["p99_ms"] = round3(all?.p99 ?? 0)
        object["max_ms"] = round3(all?.max ?? 0)
        var kinds: [String: Any] = [:]
        for kind in OperationKind.allCases {
            guard let summary = statistics.latencies[kind.rawValue].summary() else { continue }
            kinds[kind.name] = [
                "operations": summary.count, "p50_ms": round3(summary.p50), "p99_ms": round3(summary.p99),
                "max_ms": round3(summary.max),
            ]
        }
        object["by_kind"] = kinds
        if let unavailable { object["note"] = unavailable }
        if !notes.isEmpty { object["notes"] = notes }
        if options.serverPID != nil {
            object["server_cpu_us_per_op"] = round3(serverCPUPerOperation ?? 0)
            if let database = databaseCPUPerOperation { object["database_cpu_us_per_op"] = round3(database) }
            object["server_rss_kb"] = serverAtEnd?.peakRSSKB ?? serverAtStart?.peakRSSKB ?? 0
            object["server_rss_end_kb"] = serverAtEnd?.rssKB ?? 0
        }
        switch options.scenario {
        case .poll, .mixed: object["changed_polls"] = statistics.changedPolls
        case .list:
            object["list_feed_snaps"] = listFeedSnaps
            object["snaps_per_listing"] = operations > 0 ? statistics.listedSnaps / operations : 0
        case .post, .view: object["image_bytes"] = imageBytes
        case .photo:
            object["photo_bytes"] = operations > 0 ? statistics.imageBytesReceived / max(operations, 1) : 0
        case .idle:
            object["idle_connections"] = idleHeld
            object["server_rss_marks_kb"] = idleMarks.map { ["connections": $0.connections, "rss_kb": $0.server?.rssKB ?? 0] }
            if let perConnection = rssPerIdleConnection { object["server_rss_per_connection_kb"] = round3(perConnection) }
            if let average = rssPerIdleConnectionAverage { object["server_rss_per_connection_avg_kb"] = round3(average) }
        case .handshake: break
        }
        // Every value above is one the JSON writer takes: a nil here would be a value of a new kind.
        return JSONValue(foundation: object)?.toJSON() ?? "{}"
    }

    private func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    // MARK: Text

    var text: String {
        if let unavailable { return "scenario \(options.scenario.rawValue): \(unavailable)" }
        var lines: [String] = []
        let shape =
            options.scenario == .handshake
            ? "\(options.connections) concurrent" : "\(options.connections) connections, depth \(options.depth)"
        lines.append("scenario \(options.scenario.rawValue): \(shape), \(options.users) users")
        lines.append(String(format: "  %d operations in %.2f s: %.0f ops/s", operations, seconds, opsPerSecond))
        if let all = statistics.allLatencies.summary() {
            lines.append(String(format: "  latency ms: p50 %.3f  p90 %.3f  p99 %.3f  max %.3f", all.p50, all.p90, all.p99, all.max))
        }
        if options.scenario == .mixed {
            for kind in OperationKind.allCases {
                guard let s = statistics.latencies[kind.rawValue].summary() else { continue }
                lines.append("    \(kind.name): \(s.count) ops, " + String(format: "p50 %.3f, p99 %.3f ms", s.p50, s.p99))
            }
        }
        let errors = statistics.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("  errors: \(statistics.errorCount)" + (errors.isEmpty ? "" : " (\(errors))"))
        if options.scenario == .view || options.scenario == .mixed {
            let verdict = statistics.doubleViews == 0 ? "ok" : "CORRECTNESS FAILURE"
            lines.append(
                "  double views: \(statistics.doubleViews) of \(statistics.doubleViewChecks) deliberate second opens "
                    + "and the load: \(verdict)"
            )
        }
        lines.append(String(format: "  client CPU: %.1f µs/op", operations > 0 ? clientCPUMicroseconds / Double(operations) : 0))
        if options.serverPID != nil {
            if let cpu = serverCPUPerOperation { lines.append(String(format: "  server CPU: %.1f µs/op", cpu)) }
            if let end = serverAtEnd { lines.append("  server RSS: \(end.rssKB) KiB now, \(end.peakRSSKB) KiB peak") }
        }
        if options.scenario == .idle {
            lines.append("  idle connections held: \(idleHeld)")
            for mark in idleMarks {
                lines.append("  server RSS with \(mark.connections) idle connections: \(mark.server?.rssKB ?? 0) KiB")
            }
            if let perConnection = rssPerIdleConnection {
                lines.append(
                    String(
                        format: "  server RSS per idle connection: %.1f KiB (second half), %.1f KiB (average)",
                        perConnection, rssPerIdleConnectionAverage ?? 0))
            }
        }
        lines += notes.map { "  note: \($0)" }
        return lines.joined(separator: "\n")
    }
}
