import Foundation

/// One log event as a JSON object on one line: `time` (RFC 3339, UTC, milliseconds), `level`,
/// `message`, then the fields in the order given: the object is joined here so the keys keep
/// that order, each string encoded by Foundation's JSONEncoder.
enum JSONLogLine {
    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    static func line(time: Date, level: LogLevel, message: String, fields: KeyValuePairs<String, String>) -> String {
        var members = [("time", timeStyle.format(time)), ("level", level.name), ("message", message)]
        members += fields.filter { key, _ in !["time", "level", "message"].contains(key) }.map { ($0.key, $0.value) }
        return "{" + members.map { quoted($0.0) + ":" + quoted($0.1) }.joined(separator: ",") + "}"
    }

    /// `text` as a JSON string, escaped by Foundation's encoder (quote, backslash, controls).
    static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        guard let encoded = try? encoder.encode(text) else { return "\"\"" }
        return String(decoding: encoded, as: UTF8.self)
    }
}
