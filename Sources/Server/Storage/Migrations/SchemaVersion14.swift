/// Version 14: the approval queue. With `--moderation queue` a student's new snap waits for an
/// admin: only its poster (and the admins' queue) sees it until it is approved.
enum SchemaVersion14 {
    static let migration = SchemaMigration(
        version: 14, summary: "snaps awaiting approval",
        sql: """
            ALTER TABLE snaps ADD COLUMN awaiting_approval INTEGER NOT NULL DEFAULT 0 CHECK (awaiting_approval IN (0, 1));
            CREATE INDEX snaps_awaiting_approval ON snaps(posted_at) WHERE awaiting_approval = 1;
            """)
}
