import Foundation
import JSON

/// One log event as a JSON object on one line: `time` (RFC 3339, UTC, milliseconds), `level`,
/// `message`, then the fields in the order given (the one JSON writer keeps that order).
enum JSONLogLine {
    private static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    static func line(time: Date, level: LogLevel, message: String, fields: KeyValuePairs<String, String>) -> String {
        var members = [("time", timeStyle.format(time)), ("level", level.name), ("message", message)]
        members += fields.filter { key, _ in !["time", "level", "message"].contains(key) }.map { ($0.key, $0.value) }
        return JSONValue.object(members.map { (key: $0.0, value: .string($0.1)) }).toJSON()
    }
}
