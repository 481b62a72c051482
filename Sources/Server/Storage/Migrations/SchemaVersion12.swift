/// Version 12: moderation. A report is one user's complaint about one snap, kept until an admin
/// resolves it; while a snap has one, its picture stays for the admins (the purge passes it by).
/// A suspension stops one student posting, dropping pins and reporting until a time.
enum SchemaVersion12 {
    static let migration = SchemaMigration(
        version: 12, summary: "reports and suspensions",
        sql: """
            CREATE TABLE reports (
                snap_id INTEGER NOT NULL REFERENCES snaps(id) ON DELETE CASCADE,
                reporter_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                reason TEXT NOT NULL,
                reported_at INTEGER NOT NULL,
                PRIMARY KEY (snap_id, reporter_id)
            ) STRICT;
            CREATE INDEX reports_by_time ON reports(reported_at);
            CREATE TABLE suspensions (
                user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                until INTEGER NOT NULL,
                reason TEXT NOT NULL,
                suspended_by TEXT NOT NULL,
                suspended_at INTEGER NOT NULL
            ) STRICT;
            """)
}
