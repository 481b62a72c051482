/// Version 11: the audit log. Every admin action (from the client, offline commands, restores,
/// migrations) is a row: when, who, what, the target and the result. Expiry never touches it.
enum SchemaVersion11 {
    static let migration = SchemaMigration(
        version: 11, summary: "audit log",
        sql: """
            CREATE TABLE audit_log (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                at INTEGER NOT NULL,
                actor TEXT NOT NULL,
                action TEXT NOT NULL,
                target TEXT NOT NULL,
                result TEXT NOT NULL
            ) STRICT;
            CREATE INDEX audit_log_by_time ON audit_log(at);
            """)
}
