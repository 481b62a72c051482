import Foundation
import TestSupport
import Testing

/// `snapshare-bench` runs against a real server and reports what scripts rely on.
/// Runs are short and bounded by an operation count; no figure is judged here.
@Suite struct BenchSmokeTests {
    /// Runs the built bench against `server` with `arguments`; returns its JSON report.
    private func bench(_ server: TestServer, _ arguments: [String]) throws -> [String: Any] {
        let result = try Subprocess.run(
            "snapshare-bench",
            [
                "--server", server.address, "--ca", server.caPath, "--users", "2", "--warmup", "0", "--json",
                "--pid", "\(ProcessInfo.processInfo.processIdentifier)",
            ] + arguments, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    @Test func repeatedRunsBecomeOneRowOfMediansThatKeepsEveryError() throws {
        let folder = TemporaryDirectory("snapshare-bench-summary")
        let rates = [1000, 3000, 2000]
        for (index, rate) in rates.enumerated() {
            let run: [String: Any] = [
                "label": "poll-1k", "scenario": "poll", "connections": 50, "depth": 3, "ops_per_sec": rate,
                "p50_ms": 1.0, "p99_ms": Double(index + 1), "max_ms": 9.0, "server_cpu_us_per_op": 5.0,
                "client_cpu_us_per_op": 4.0, "errors": index == 2 ? 3 : 0, "double_views": 0,
                "server_rss_kb": 1024 * (index + 1),
            ]
            try JSONSerialization.data(withJSONObject: run).write(to: URL(fileURLWithPath: folder.path + "/0\(index)-poll-1k.json"))
        }
        let summary = try Subprocess.run("snapshare-bench", ["--summarize", folder.path])
        #expect(summary.status == 0, "\(summary.stderr)")
        let row = try #require(summary.stdout.split(separator: "\n").first { $0.hasPrefix("| poll-1k |") }, "\(summary.stdout)")
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells[2] == "2000", "the median rate: \(row)")
        #expect(cells[8] == "3.0 MiB", "the largest memory seen: \(row)")
        #expect(cells[9] == "3", "an error in a later run stays in the row: \(row)")
    }

    @Test func aShortPollRunReportsEveryRequiredKey() throws {
        let server = try TestServer()
        let report = try bench(server, ["--scenario", "poll", "--connections", "4", "--depth", "2", "--operations", "200"])
        for key in [
            "ops_per_sec", "p50_ms", "p90_ms", "p99_ms", "max_ms", "errors", "errors_by_code", "double_views",
            "server_cpu_us_per_op", "server_rss_kb",
        ] {
            #expect(report[key] != nil, "the report has no \(key)")
        }
        #expect(report["scenario"] as? String == "poll")
        #expect(report["errors"] as? Int == 0, "\(report["errors_by_code"] ?? "")")
        #expect((report["operations"] as? Int ?? 0) >= 200)
        #expect((report["server_rss_kb"] as? Int ?? 0) > 0)
    }

    @Test func aShortViewRunOpensEverySnapOnceAndFindsNoDoubleView() throws {
        let server = try TestServer()
        let report = try bench(
            server,
            [
                "--scenario", "view", "--connections", "2", "--depth", "2", "--operations", "6",
                "--view-snaps", "5", "--image-bytes", "4096",
            ])
        #expect(report["errors"] as? Int == 0, "\(report["errors_by_code"] ?? "")")
        #expect(report["double_views"] as? Int == 0)
        #expect((report["double_view_checks"] as? Int ?? 0) > 0, "the deliberate second opens ran")
    }

    @Test func aShortPhotoRunFetchesAlbumPhotosOrSaysWhyItCannot() throws {
        let server = try TestServer()
        let report = try bench(server, ["--scenario", "photo", "--connections", "2", "--operations", "20"])
        if report["available"] as? Bool == true {
            #expect(report["errors"] as? Int == 0, "\(report["errors_by_code"] ?? "")")
            #expect((report["operations"] as? Int ?? 0) >= 20)
        } else {
            #expect(!(report["note"] as? String ?? "").isEmpty, "an unavailable scenario says why")
        }
    }
}
