import SQL
import Wire

/// The audit log's rows.
extension SQLStore: AuditStore {
    package func recordAudit(_ entry: AuditRecord) throws {
        try translatingErrors("recording an admin action") {
            try sql.execute(
                """
                INSERT INTO audit_log (at, actor, action, target, result)
                VALUES (\(entry.at), \(entry.actor), \(entry.action), \(entry.target), \(entry.result))
                """)
        }
    }

    package func auditEntries(since: Int64, limit: Int) throws -> [AuditRecord] {
        try translatingErrors("reading the audit log") {
            try sql.query(
                """
                SELECT at, actor, action, target, result FROM audit_log WHERE at >= \(since) ORDER BY at, id LIMIT \(limit)
                """
            ) { row in
                AuditRecord(
                    at: row.int64("at"), actor: row.string("actor"), action: row.string("action"),
                    target: row.string("target"), result: row.string("result"))
            }
        }
    }
}
