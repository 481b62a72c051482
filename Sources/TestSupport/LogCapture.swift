import Foundation
import Server

/// Collects a server's log lines in memory, so a test can check what was logged (and what
/// never may be, like a password), and wait for a line the server logs when something happened.
package final class LogCapture: @unchecked Sendable {
    /// Guards `lines`; signalled at each new line.
    private let condition = NSCondition()
    private var lines: [String] = []

    package init() {}

    /// A logger at `level` that writes here, in `format`.
    package func logger(level: LogLevel = .info, format: LogFormat = .text) -> Logger {
        Logger(level: level, format: format) { [self] line in
            condition.lock()
            lines.append(line)
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Every line so far.
    package var all: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    /// The lines containing `text`.
    package func lines(containing text: String) -> [String] { all.filter { $0.contains(text) } }

    /// Waits until `count` lines contain `text` (counting those logged already) and returns them;
    /// throws once `timeout` seconds pass first. The deadline only turns a line that never comes
    /// into a failure.
    @discardableResult
    package func waitForLines(containing text: String, count: Int = 1, timeout: Double = 30) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let found = lines.filter { $0.contains(text) }
            if found.count >= count { return found }
            guard condition.wait(until: deadline) else {
                throw NeverHappened(awaited: "\(count) log line\(count == 1 ? "" : "s") containing \"\(text)\"", seconds: timeout)
            }
        }
    }
}
