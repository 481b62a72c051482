import SQL
import Wire

/// The audit log's rows.
extension SQLStore: AuditStore {
    package func recordAudit(_ entry: AuditRecord, classID: Int64?) throws {
        try translatingErrors("recording an admin action") {
            try sql.execute(
                """
                INSERT INTO audit_log (at, actor, action, target, result, class_id)
                VALUES (\(entry.at), \(entry.actor), \(entry.action), \(entry.target), \(entry.result), \(classID))
                """)
        }
    }

    package func auditEntries(since: Int64, limit: Int, classID: Int64?) throws -> [AuditRecord] {
        try translatingErrors("reading the audit log") {
            let inClass: SQL = classID.map { " AND class_id = \($0)" } ?? ""
            return try sql.query(
                """
                SELECT at, actor, action, target, result FROM audit_log WHERE at >= \(since)\(inClass) ORDER BY at, id LIMIT \(limit)
                """
            ) { row in
                AuditRecord(
                    at: row.int64("at"), actor: row.string("actor"), action: row.string("action"),
                    target: row.string("target"), result: row.string("result"))
            }
        }
    }
}
