/// Version 15: an account's life. A roster entry belongs to the account that claimed it (by id,
/// so a rename carries it along and a deletion takes it); an account remembers when it last
/// signed in with a password and, once replaced, the hash of the one-time password it was given
/// (so it can never be chosen again); a rejected snap leaves a notice for its poster.
enum SchemaVersion15 {
    static let migration = SchemaMigration(
        version: 15, summary: "roster claims, sign-ins and rejections",
        sql: """
            ALTER TABLE roster ADD COLUMN claimed_by INTEGER REFERENCES users(id) ON DELETE CASCADE;
            UPDATE roster SET claimed_by = (SELECT u.id FROM users u WHERE u.name = roster.name);
            CREATE UNIQUE INDEX roster_by_claimant ON roster(claimed_by) WHERE claimed_by IS NOT NULL;
            ALTER TABLE users ADD COLUMN last_sign_in_at INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE users ADD COLUMN one_time_hash TEXT NOT NULL DEFAULT '';
            UPDATE users SET last_sign_in_at = coalesce((SELECT max(s.created_at) FROM sessions s WHERE s.user_id = users.id), 0);
            CREATE TABLE rejected_snaps (
                id INTEGER PRIMARY KEY,
                feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
                poster_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                posted_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
                width INTEGER NOT NULL CHECK (width >= 0),
                height INTEGER NOT NULL CHECK (height >= 0),
                format INTEGER NOT NULL CHECK (format IN (1, 2)),
                reason TEXT NOT NULL,
                rejected_at INTEGER NOT NULL
            ) STRICT;
            CREATE INDEX rejected_snaps_by_poster ON rejected_snaps(poster_id, posted_at);
            CREATE INDEX rejected_snaps_by_expiry ON rejected_snaps(expires_at);
            """)
}
