import Server
import Synchronization

/// Collects a server's log lines in memory, so a test can check what was logged (and what
/// never may be, like a password).
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    /// A logger at `level` that writes here, in `format`.
    public func logger(level: LogLevel = .info, format: LogFormat = .text) -> Logger {
        Logger(level: level, format: format) { [self] line in lines.withLock { $0.append(line) } }
    }

    /// Every line so far.
    public var all: [String] { lines.withLock { $0 } }

    /// The lines containing `text`.
    public func lines(containing text: String) -> [String] { all.filter { $0.contains(text) } }
}
