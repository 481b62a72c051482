/// The SQLite schema of a vacation file.
///
/// Design notes:
/// - `application_id` marks the file as a Snapshare vacation, so a foreign SQLite file in the
///   folder is recognized and left alone; `user_version` is the schema version.
/// - Tag counts are not stored: they are the number of `photo_tags` rows, whose primary key
///   (photo, tag) makes a photo count once per tag. Unvisiting then needs no arithmetic, and
///   tags and places left without photos are deleted in the same transaction.
/// - Image bytes live in `photo_images`, so listings never read them.
/// - Photos are keyed by (server, photo id): ids from two servers cannot collide.
enum VacationSchema {
    /// `PRAGMA application_id` of vacation files: "SNVV".
    static let applicationID: Int32 = 0x534E_5656
    /// The schema version this code reads and writes.
    static let version: Int64 = 1

    static let version1 = """
        CREATE TABLE places (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
            first_visited INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE photos (
            id INTEGER PRIMARY KEY,
            origin TEXT NOT NULL,
            photo_id INTEGER NOT NULL,
            title TEXT NOT NULL,
            place_id INTEGER NOT NULL REFERENCES places(id),
            latitude REAL NOT NULL,
            longitude REAL NOT NULL,
            width INTEGER NOT NULL CHECK (width >= 0),
            height INTEGER NOT NULL CHECK (height >= 0),
            visited_at INTEGER NOT NULL,
            UNIQUE (origin, photo_id)
        ) STRICT;
        CREATE INDEX photos_by_place ON photos(place_id);
        CREATE INDEX photos_by_photo_id ON photos(photo_id);

        CREATE TABLE photo_images (
            photo_id INTEGER PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
            image BLOB NOT NULL,
            image_sha256 BLOB NOT NULL CHECK (length(image_sha256) = 32),
            thumbnail BLOB NOT NULL,
            thumbnail_sha256 BLOB NOT NULL CHECK (length(thumbnail_sha256) = 32)
        ) STRICT;

        -- Machine tags (with a colon) are never stored.
        CREATE TABLE tags (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE CHECK (length(name) > 0 AND instr(name, ':') = 0)
        ) STRICT;

        CREATE TABLE photo_tags (
            photo_id INTEGER NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
            tag_id INTEGER NOT NULL REFERENCES tags(id),
            PRIMARY KEY (photo_id, tag_id)
        ) STRICT, WITHOUT ROWID;
        CREATE INDEX photo_tags_by_tag ON photo_tags(tag_id);
        """
}
