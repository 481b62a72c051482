import CommandLineParsing
import Foundation
import JSON
import Wire

/// `snapshare-server admin audit [--since 7d] [--json]`: the audit log as a table or JSON lines.
enum AuditReport {
    /// The most entries one report shows.
    static let limit = 100_000

    /// The entries since `since`: of the class `--class` names in `parsed`, else every entry.
    static func entries(_ configuration: ServerConfiguration, since: Int64, _ parsed: ParsedCommand) throws -> [AuditRecord] {
        let source = try Backup.source(for: configuration)
        let classID = parsed.string("--class") == nil ? nil : try source.offlineClass(parsed).id
        return try source.auditEntries(since: since, limit: limit, classID: classID)
    }

    /// One line per entry: time (UTC), who, what, target, result.
    static func table(_ entries: [AuditRecord]) -> String {
        guard !entries.isEmpty else { return "No admin actions recorded in that time.\n" }
        return PlainTable.render(
            header: ["TIME", "WHO", "ACTION", "TARGET", "RESULT"],
            rows: entries.map { [time($0.at), $0.actor, $0.action, $0.target, $0.result] }) + "\n"
    }

    /// A JSON array of objects with `at` (milliseconds), `time`, `actor`, `action`, `target`, `result`.
    static func json(_ entries: [AuditRecord]) -> String {
        JSONValue.array(
            entries.map {
                .object([
                    ("at", .int($0.at)), ("time", .string(time($0.at))), ("actor", .string($0.actor)), ("action", .string($0.action)),
                    ("target", .string($0.target)), ("result", .string($0.result)),
                ])
            }
        ).toJSON() + "\n"
    }

    static func time(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601)
    }
}
