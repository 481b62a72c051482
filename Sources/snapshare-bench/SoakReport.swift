import Foundation
import JSON
import TLS

/// `--soak`: prepare the class, run it, check what must hold, and report as Markdown (for
/// docs/benchmarks.md) or one JSON object.
struct SoakReport {
    var students = 0
    var seconds = 0.0
    var statistics = RunStatistics()
    var postsAcknowledged = 0
    var postsMissing = 0
    var reopensRefused = 0
    var reconnections = 0
    var memory: (warm: Int, highest: Int, last: Int)?
    var clientCPUSeconds = 0.0

    static func run(_ options: BenchOptions, log: @escaping (String) -> Void) throws -> SoakReport {
        let context: TLSContext
        do { context = try TLSContext.client(trustRootsFile: options.caFile) } catch {
            throw BenchError("cannot use CA file \(options.caFile ?? "-"): \(error)")
        }
        let fixture = try BenchFixture.prepare(options, context: context, log: log)
        let server = options.serverPIDs.isEmpty ? nil : ServerProbe(pids: options.serverPIDs)
        if let server, server.sample() == nil { throw BenchError("no process \(server.pids) to measure (--pid)") }
        let run = try SoakRun(options: options, fixture: fixture, context: context, loop: try LoadLoop(), server: server, log: log)
        log("a class of \(fixture.tokens.count) for \(Int(options.duration)) s")
        run.execute()
        log("looking up every acknowledged post")
        var report = SoakReport()
        report.students = fixture.tokens.count
        report.seconds = run.seconds
        report.statistics = run.statistics
        report.postsAcknowledged = run.acknowledged.count
        report.postsMissing = try run.missingPosts().count
        report.reopensRefused = run.reopensRefused
        report.reconnections = run.reconnections
        report.memory = run.memoryAfterWarmup()
        report.clientCPUSeconds = run.clientCPUMicroseconds / 1e6
        return report
    }

    /// Everything that must hold did.
    var passed: Bool {
        statistics.errorCount == 0 && statistics.doubleViews == 0 && postsMissing == 0 && (memoryGrowth ?? 0) <= 0.10
    }

    /// Highest resident memory after the warm-up, relative to the warm-up's.
    var memoryGrowth: Double? {
        guard let memory, memory.warm > 0 else { return nil }
        return Double(memory.highest - memory.warm) / Double(memory.warm)
    }

    static let kinds: [(OperationKind, String)] = [
        (.poll, "Poll"), (.post, "PostSnap"), (.view, "OpenSnap"), (.list, "ListSnaps (every feed)"),
        (.handshake, "connect: TLS, Hello, Resume"),
    ]

    var markdown: String {
        var lines = ["| request | count | per second | p50 ms | p99 ms | max ms |", "|---|---:|---:|---:|---:|---:|"]
        for (kind, name) in Self.kinds {
            guard let summary = statistics.latencies[kind.rawValue].summary() else { continue }
            let rate = seconds > 0 ? Double(summary.count) / seconds : 0
            lines.append(
                String(
                    format: "| %@ | %d | %.1f | %.2f | %.2f | %.1f |", name, summary.count, rate,
                    summary.p50, summary.p99, summary.max))
        }
        let errors =
            statistics.errors.isEmpty
            ? "0"
            : statistics.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines += [
            "",
            "| check | result |", "|---|---|",
            "| errors | \(errors) |",
            "| double views | \(statistics.doubleViews) (\(reopensRefused) deliberate second opens, each refused with ALREADY_VIEWED) |",
            "| acknowledged posts lost | \(postsMissing) of \(postsAcknowledged) |",
            "| students leaving and coming back | \(reconnections) |",
        ]
        if let memory, let growth = memoryGrowth {
            lines.append(
                String(
                    format: "| server RSS after warm-up → highest → end | %.1f → %.1f → %.1f MiB (%+.1f%%) |",
                    Double(memory.warm) / 1024, Double(memory.highest) / 1024, Double(memory.last) / 1024, growth * 100))
        }
        lines.append(String(format: "| load generator CPU | %.0f s of %.0f s |", clientCPUSeconds, seconds))
        return lines.joined(separator: "\n")
    }

    var json: String {
        var kinds: [String: Any] = [:]
        for (kind, _) in Self.kinds {
            guard let summary = statistics.latencies[kind.rawValue].summary() else { continue }
            kinds[kind.name] = ["count": summary.count, "p50_ms": summary.p50, "p99_ms": summary.p99, "max_ms": summary.max]
        }
        var object: [String: Any] = [
            "students": students, "seconds": seconds, "requests": kinds, "errors": statistics.errors,
            "double_views": statistics.doubleViews, "reopens_refused": reopensRefused,
            "posts_acknowledged": postsAcknowledged, "posts_missing": postsMissing, "reconnections": reconnections,
            "passed": passed,
        ]
        if let memory {
            object["rss_kb"] = ["warm": memory.warm, "highest": memory.highest, "last": memory.last]
        }
        // Every value above is one the JSON writer takes: a nil here would be a value of a new kind.
        return JSONValue(foundation: object)?.toJSON() ?? "{}"
    }
}
