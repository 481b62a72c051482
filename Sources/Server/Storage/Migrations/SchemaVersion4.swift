/// Schema version 4: an access epoch, so a running server notices account changes made by
/// another process (`snapshare-server admin ...` while it runs).
///
/// Design notes:
/// - Triggers bump the epoch on every session deletion and on every change of a user's admin
///   flag or password, whoever makes it. The server reads this one row every second; only when
///   it moved does it look up the sessions of its live connections.
/// - One row (`id = 1`), so reading it costs one page.
enum SchemaVersion4 {
    static let migration = SchemaMigration(
        version: 4, summary: "access epoch",
        sql: """
            CREATE TABLE access_epoch (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                value INTEGER NOT NULL
            ) STRICT;
            INSERT INTO access_epoch (id, value) VALUES (1, 0);

            CREATE TRIGGER access_epoch_session_deleted AFTER DELETE ON sessions
            BEGIN
                UPDATE access_epoch SET value = value + 1 WHERE id = 1;
            END;

            CREATE TRIGGER access_epoch_user_changed AFTER UPDATE OF is_admin, password_hash ON users
            BEGIN
                UPDATE access_epoch SET value = value + 1 WHERE id = 1;
            END;
            """)
}
