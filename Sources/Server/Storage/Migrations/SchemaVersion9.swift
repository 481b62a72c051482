/// Version 9: device tokens. A device that logged in successfully keeps a token (only its
/// SHA-256 is stored, as for sessions); a later login presenting it is judged by that device's
/// own failure budget instead of its address's, so a class behind one address cannot lock out a
/// student's own laptop (OWASP's device cookies).
enum SchemaVersion9 {
    static let migration = SchemaMigration(
        version: 9, summary: "device tokens",
        sql: """
            CREATE TABLE device_tokens (
                token_hash BLOB PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                last_used_at INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX device_tokens_by_user ON device_tokens(user_id);
            CREATE INDEX device_tokens_by_use ON device_tokens(last_used_at);
            """)
}
