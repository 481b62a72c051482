import Client
import Foundation
import Posix
import Wire

/// How long a change made on one instance takes to reach a Poll on another (issue 13's
/// cross-instance watch delay): a poster on `--server` posts small snaps one at a time; a
/// watcher on `--watch-delay` polls as fast as its round trips allow; each delay runs from the
/// post's acknowledgement to the first Poll on the other instance that reports the change.
enum WatchDelay {
    struct Report {
        var delaysMilliseconds: [Double]
        var json: String {
            let sorted = delaysMilliseconds.sorted()
            func quantile(_ q: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
            return String(
                format: "{\"scenario\":\"watch-delay\",\"samples\":%d,\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f}",
                sorted.count, quantile(0.5), quantile(0.99), sorted.last ?? 0)
        }
    }

    static func run(_ options: BenchOptions, other: (host: String, port: Int), log: (String) -> Void) throws -> Report {
        let home = NSTemporaryDirectory() + "snapshare-watch-delay-" + UUID().uuidString
        defer { FileSystem.removeTree(home) }
        func session(_ host: String, _ port: Int, _ name: String) throws -> SnapshareSession {
            let state = ClientState(directory: home + "/" + name)
            let session = try SnapshareSession(settings: ConnectionSettings(host: host, port: port, caFile: options.caFile), state: state) {
                _ in
            }
            _ = try session.register(username: name, password: "watch delay password", classCode: options.classCode)
            return session
        }
        let suffix = String(UUID().uuidString.prefix(6)).lowercased()
        let poster = try session(options.host, options.port, "poster-\(suffix)")
        let watcher = try session(other.host, other.port, "watcher-\(suffix)")
        let image = try BenchImage.noisePNG(approximately: 2_000)
        var version = try watcher.poll(knownVersion: 0).version
        var delays: [Double] = []
        log("timing \(options.samples) posts on \(options.host):\(options.port) seen from \(other.host):\(other.port)")
        for _ in 0..<options.samples {
            _ = try poster.post(feed: "Random", image: image)
            let posted = DispatchTime.now().uptimeNanoseconds
            let deadline = posted + 10_000_000_000
            while true {
                let result = try watcher.poll(knownVersion: version)
                if result.changed {
                    delays.append(Double(DispatchTime.now().uptimeNanoseconds - posted) / 1e6)
                    version = result.version
                    break
                }
                guard DispatchTime.now().uptimeNanoseconds < deadline else {
                    throw BenchError(
                        "a post on \(options.host):\(options.port) did not reach a Poll on \(other.host):\(other.port) within 10 s")
                }
            }
        }
        return Report(delaysMilliseconds: delays)
    }
}
