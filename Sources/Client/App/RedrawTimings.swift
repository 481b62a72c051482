import Foundation
import Posix

/// Keystroke to finished redraw, measured by the app itself when `SNAPSHARE_APP_TIMINGS` names a
/// file (scripts/app-bench.sh): from the moment input was read to the moment the redrawn frame
/// was written to the terminal, which covers handling the keys, drawing every cell, diffing and
/// the write(2). On exit one JSON line goes to the file: count, p50, p99 and max in milliseconds.
final class RedrawTimings {
    private let path: String
    private var nanoseconds: [UInt64] = []

    init(path: String) { self.path = path }

    func record(from start: UInt64) {
        nanoseconds.append(DispatchTime.now().uptimeNanoseconds - start)
    }

    func write() {
        let sorted = nanoseconds.sorted()
        func milliseconds(_ quantile: Double) -> Double {
            sorted.isEmpty ? 0 : Double(sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))]) / 1e6
        }
        let line = String(
            format: "{\"redraws\":%d,\"p50_ms\":%.3f,\"p99_ms\":%.3f,\"max_ms\":%.3f}\n",
            sorted.count, milliseconds(0.5), milliseconds(0.99), Double(sorted.last ?? 0) / 1e6)
        // Written while the app still holds the screen, so a failure is not printed: the bench
        // that asked for the file says when it finds none.
        try? StagedOutput.write(Array(line.utf8), to: path, mode: 0o600, replacing: true)
    }
}
