/// Version 7: the login and class-code throttles keep their budgets in the database, so that
/// instances sharing one (PostgreSQL) count the same failures; SQLite holds the same table so
/// both engines follow one rule (`ThrottleStore`).
enum SchemaVersion7 {
    static let migration = SchemaMigration(
        version: 7, summary: "login throttle budgets",
        sql: """
            CREATE TABLE throttle_budgets (
                kind TEXT NOT NULL,
                scope INTEGER NOT NULL CHECK (scope IN (0, 1, 2)),
                name TEXT NOT NULL,
                address TEXT NOT NULL,
                failures TEXT NOT NULL,
                pending TEXT NOT NULL,
                next_slot INTEGER NOT NULL,
                last_used INTEGER NOT NULL,
                PRIMARY KEY (kind, scope, name, address)
            ) STRICT, WITHOUT ROWID;
            -- The purge forgets budgets by when they were last used.
            CREATE INDEX throttle_budgets_by_use ON throttle_budgets(last_used);
            """)
}
