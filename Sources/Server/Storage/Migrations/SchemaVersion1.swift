/// Schema version 1: accounts, sessions, feeds, snaps with their images kept apart, and views.
///
/// Design notes:
/// - STRICT tables, so a wrongly typed bind is an error instead of a silently stored string.
/// - `AUTOINCREMENT` ids are never reused, so a client holding an old listing can never open a
///   different snap that happens to get the id of a deleted one.
/// - Image bytes live in `snap_images`, keyed by snap id: listings and counts never read the
///   image pages, and purging an expired image leaves the metadata to answer `expired`.
/// - The view-once gate is the primary key of `views`: one row per (snap, viewer), inserted by
///   the claim, and a conflict is `alreadyViewed`.
/// - Every child row is deleted with its parent (`ON DELETE CASCADE`), so resets leave nothing.
enum SchemaVersion1 {
    static let migration = SchemaMigration(
        version: 1, summary: "initial schema",
        sql: """
            CREATE TABLE users (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) > 0),
                password_hash TEXT NOT NULL,
                is_admin INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
                created_at INTEGER NOT NULL
            ) STRICT;

            -- Only the SHA-256 of a session token is stored, so a stolen file yields no live tokens.
            CREATE TABLE sessions (
                token_hash BLOB PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                last_used_at INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX sessions_by_user ON sessions(user_id);
            CREATE INDEX sessions_by_expiry ON sessions(expires_at);

            CREATE TABLE feeds (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(name) > 0),
                created_at INTEGER NOT NULL
            ) STRICT;

            CREATE TABLE snaps (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
                poster_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                posted_at INTEGER NOT NULL,
                expires_at INTEGER NOT NULL,
                byte_count INTEGER NOT NULL CHECK (byte_count >= 0),
                width INTEGER NOT NULL CHECK (width >= 0),
                height INTEGER NOT NULL CHECK (height >= 0),
                format INTEGER NOT NULL CHECK (format IN (1, 2)),
                sha256 BLOB NOT NULL,
                image_erased INTEGER NOT NULL DEFAULT 0 CHECK (image_erased IN (0, 1))
            ) STRICT;
            -- A feed's listing, newest first, straight from the index.
            CREATE INDEX snaps_by_feed ON snaps(feed_id, posted_at DESC, id DESC);
            -- The all-feeds listing.
            CREATE INDEX snaps_by_time ON snaps(posted_at DESC, id DESC);
            -- Post counts, and the foreign-key check when a user is deleted.
            CREATE INDEX snaps_by_poster ON snaps(poster_id);
            -- The purge looks only at images not yet erased.
            CREATE INDEX snaps_awaiting_purge ON snaps(expires_at) WHERE image_erased = 0;

            CREATE TABLE snap_images (
                snap_id INTEGER PRIMARY KEY REFERENCES snaps(id) ON DELETE CASCADE,
                bytes BLOB NOT NULL
            ) STRICT;

            CREATE TABLE views (
                snap_id INTEGER NOT NULL REFERENCES snaps(id) ON DELETE CASCADE,
                viewer_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                claimed_at INTEGER NOT NULL,
                PRIMARY KEY (snap_id, viewer_id)
            ) STRICT, WITHOUT ROWID;
            -- View counts per user, unread counts, and cascades from users.
            CREATE INDEX views_by_viewer ON views(viewer_id, snap_id);

            -- The default feeds exist from the first start only; deleting them later is final.
            INSERT INTO feeds (name, created_at)
            SELECT column1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)
            FROM (VALUES ('Memes'), ('Dog Spots'), ('Random'));
            """)
}
