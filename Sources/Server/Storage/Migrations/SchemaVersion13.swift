/// Version 13: the roster and the account controls. A disabled account keeps its name but cannot
/// log in; an account made by a roster import has a one-time password its owner must change
/// first; the roster lists the names that may register when registration is limited to it. A
/// rename or a disable moves the access epoch, so every instance applies it to live connections.
enum SchemaVersion13 {
    static let migration = SchemaMigration(
        version: 13, summary: "roster and account controls",
        sql: """
            ALTER TABLE users ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1));
            ALTER TABLE users ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0 CHECK (must_change_password IN (0, 1));
            CREATE TABLE roster (
                name TEXT PRIMARY KEY COLLATE NOCASE,
                display_name TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('student', 'admin')),
                added_at INTEGER NOT NULL
            ) STRICT;
            DROP TRIGGER access_epoch_user_changed;
            CREATE TRIGGER access_epoch_user_changed AFTER UPDATE OF is_admin, password_hash, name, disabled ON users
            BEGIN
                UPDATE access_epoch SET value = value + 1 WHERE id = 1;
            END;
            """)
}
