/// Schema version 2: pins, albums, photos and the saved map view.
///
/// Design notes:
/// - Ownership runs users → pins → albums/photos → image bytes, every link `ON DELETE CASCADE`,
///   so deleting a pin (or a user) leaves no album, photo or byte behind.
/// - `albums` holds one row per pin: the state of its current collection and the bookkeeping a
///   download needs to resume after a restart (`searched`, `page`, the provider's `pages`) and to
///   pick a different page for New Collection. `generation` grows with every New Collection, so a
///   worker still busy with an older collection cannot touch the new one.
/// - Expected and done counts are not stored: they are the album's photo rows and those no longer
///   pending, counted through `photos_by_state`, so they can never drift from the rows.
/// - A photo row exists from the moment the search answers (a placeholder, state 0) and carries
///   everything needed to fetch it again (`provider_photo_id`, `reference`).
/// - Full images and thumbnails live in their own tables, each with its SHA-256 before the bytes:
///   album listings never read image pages, and a thumbnail is read without walking a full
///   image's overflow pages.
/// - Positions are fixed when the placeholders are made and never renumbered: removing a photo
///   leaves a gap, and the others keep their order.
enum SchemaVersion2 {
    static let migration = SchemaMigration(
        version: 2, summary: "pins and albums",
        sql: """
            CREATE TABLE pins (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                latitude REAL NOT NULL CHECK (latitude BETWEEN -90.0 AND 90.0),
                longitude REAL NOT NULL CHECK (longitude BETWEEN -180.0 AND 180.0),
                created_at INTEGER NOT NULL
            ) STRICT;
            -- A user's pins, oldest first; also the per-user count and the cascade from users.
            CREATE INDEX pins_by_user ON pins(user_id, id);

            CREATE TABLE albums (
                pin_id INTEGER PRIMARY KEY REFERENCES pins(id) ON DELETE CASCADE,
                state INTEGER NOT NULL CHECK (state IN (0, 1, 2, 3)),
                error TEXT NOT NULL DEFAULT '',
                provider TEXT NOT NULL,
                searched INTEGER NOT NULL DEFAULT 0 CHECK (searched IN (0, 1)),
                page INTEGER NOT NULL CHECK (page >= 1),
                pages INTEGER NOT NULL DEFAULT 0 CHECK (pages >= 0),
                per_page INTEGER NOT NULL CHECK (per_page >= 1),
                total INTEGER NOT NULL DEFAULT 0 CHECK (total >= 0),
                generation INTEGER NOT NULL DEFAULT 0,
                updated_at INTEGER NOT NULL
            ) STRICT;
            -- Albums left downloading, found at server start to resume them.
            CREATE INDEX albums_downloading ON albums(pin_id) WHERE state = 0;

            CREATE TABLE photos (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                pin_id INTEGER NOT NULL REFERENCES pins(id) ON DELETE CASCADE,
                position INTEGER NOT NULL CHECK (position >= 0),
                state INTEGER NOT NULL DEFAULT 0 CHECK (state IN (0, 1, 2)),
                provider_photo_id TEXT NOT NULL,
                reference TEXT NOT NULL,
                title TEXT NOT NULL,
                tags TEXT NOT NULL,
                place TEXT NOT NULL,
                latitude REAL NOT NULL,
                longitude REAL NOT NULL,
                width INTEGER NOT NULL DEFAULT 0 CHECK (width >= 0),
                height INTEGER NOT NULL DEFAULT 0 CHECK (height >= 0),
                byte_count INTEGER NOT NULL DEFAULT 0 CHECK (byte_count >= 0),
                error TEXT NOT NULL DEFAULT '',
                -- The album in order, straight from the index.
                UNIQUE (pin_id, position),
                -- A provider listing the same photo twice in one page gives one slot.
                UNIQUE (pin_id, provider_photo_id)
            ) STRICT;
            -- Expected and done counts, ready photos for Random Pin.
            CREATE INDEX photos_by_state ON photos(pin_id, state);

            CREATE TABLE photo_images (
                photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                sha256 BLOB NOT NULL CHECK (length(sha256) = 32),
                bytes BLOB NOT NULL
            ) STRICT;

            CREATE TABLE photo_thumbnails (
                photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
                sha256 BLOB NOT NULL CHECK (length(sha256) = 32),
                bytes BLOB NOT NULL
            ) STRICT;

            CREATE TABLE map_states (
                user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                center_latitude REAL NOT NULL CHECK (center_latitude BETWEEN -90.0 AND 90.0),
                center_longitude REAL NOT NULL CHECK (center_longitude BETWEEN -180.0 AND 180.0),
                zoom REAL NOT NULL CHECK (zoom BETWEEN 1.0 AND 64.0),
                updated_at INTEGER NOT NULL
            ) STRICT, WITHOUT ROWID;
            """)
}
