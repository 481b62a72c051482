/// How each log line is written (`--log-format`).
package enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-01-05T09:00:00Z INFO message`, for a person reading a terminal or a file.
    case text
    /// One JSON object per line, `{"time": …, "level": …, "message": …, fields…}`, for log
    /// collectors (journald, Loki, Elasticsearch).
    case json

    package init?(name: String) { self.init(rawValue: name.lowercased()) }
}
