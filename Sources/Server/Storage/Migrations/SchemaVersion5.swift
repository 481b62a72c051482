/// Version 5: album download leases, so that of several instances sharing a database exactly
/// one downloads a pin's album, and another takes over when the lease of a dead one runs out.
/// A single SQLite server holds every lease itself; the columns keep both engines' rules one.
enum SchemaVersion5 {
    static let migration = SchemaMigration(
        version: 5, summary: "album download leases",
        sql: """
            ALTER TABLE albums ADD COLUMN lease_owner TEXT NOT NULL DEFAULT '';
            ALTER TABLE albums ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
            """)
}
