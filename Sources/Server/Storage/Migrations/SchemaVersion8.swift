/// Version 8: the index of snaps awaiting the purge is written `WHERE NOT image_erased`, as
/// PostgreSQL's is, so the purge's statement, written once for both engines (`SQLStore`), is
/// served by it on either: SQLite uses a partial index only for a query whose terms say what the
/// index's WHERE says, and `image_erased = 0` is another term.
enum SchemaVersion8 {
    static let migration = SchemaMigration(
        version: 8, summary: "the purge's index says NOT image_erased",
        sql: """
            DROP INDEX snaps_awaiting_purge;
            CREATE INDEX snaps_awaiting_purge ON snaps(expires_at) WHERE NOT image_erased;
            """)
}
