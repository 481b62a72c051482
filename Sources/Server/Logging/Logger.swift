import Foundation
import Synchronization

/// How loud the server is.
package enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case debug = 0
    case info, warning, error

    package init?(name: String) {
        switch name.lowercased() {
        case "debug": self = .debug
        case "info": self = .info
        case "warning", "warn": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    package var name: String { ["debug", "info", "warning", "error"][rawValue] }
    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A small leveled logger writing one line per event to standard error (by default; any sink
/// will do). Messages are built only when their level is enabled. Never pass secrets
/// (passwords, tokens) to it.
///
/// Copies of a logger share its level: a reload that sets it changes every copy at once.
package struct Logger: Sendable {
    private let threshold: Threshold
    package var format: LogFormat
    private let sink: @Sendable (String) -> Void

    package init(level: LogLevel, format: LogFormat = .text, sink: @escaping @Sendable (String) -> Void = Logger.standardError) {
        threshold = Threshold(level)
        self.format = format
        self.sink = sink
    }

    /// The least level written, shared by every copy of this logger.
    package var level: LogLevel {
        get { threshold.level }
        nonmutating set { threshold.level = newValue }
    }

    private final class Threshold: Sendable {
        private let value: Atomic<Int>
        init(_ level: LogLevel) { value = Atomic(level.rawValue) }
        var level: LogLevel {
            get { LogLevel(rawValue: value.load(ordering: .relaxed)) ?? .info }
            set { value.store(newValue.rawValue, ordering: .relaxed) }
        }
    }

    /// Writes each line to standard error; a line that cannot be written is dropped and counted
    /// (see `StandardErrorLog`).
    static let standardError: @Sendable (String) -> Void = { line in
        StandardErrorLog.shared.write(line)
    }

    /// Writes one event; `fields` (never secrets) follow the message as `name=value` in text,
    /// as members of the object in JSON.
    package func log(_ level: LogLevel, _ message: @autoclosure () -> String, fields: KeyValuePairs<String, String> = [:]) {
        guard level >= self.level else { return }
        let time = Date()
        switch format {
        case .text:
            let extra = fields.map { " \($0.key)=\($0.value)" }.joined()
            sink("\(time.formatted(.iso8601)) \(level.name.uppercased()) \(message())\(extra)")
        case .json:
            sink(JSONLogLine.line(time: time, level: level, message: message(), fields: fields))
        }
    }

    func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
}
