import SQL

/// The audit log's rows.
extension SQLStore: AuditStore {
    public func recordAudit(_ entry: AuditEntry) throws {
        try translatingErrors("recording an admin action") {
            try sql.execute("""
                INSERT INTO audit_log (at, actor, action, target, result)
                VALUES (\(entry.at), \(entry.actor), \(entry.action), \(entry.target), \(entry.result))
                """)
        }
    }

    public func auditEntries(since: Int64, limit: Int) throws -> [AuditEntry] {
        try translatingErrors("reading the audit log") {
            try sql.query("""
                SELECT at, actor, action, target, result FROM audit_log WHERE at >= \(since) ORDER BY at, id LIMIT \(limit)
                """) { row in
                AuditEntry(at: row.int64("at"), actor: row.string("actor"), action: row.string("action"),
                           target: row.string("target"), result: row.string("result"))
            }
        }
    }
}
