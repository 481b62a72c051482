/// Schema version 3: favorite movies.
///
/// Design notes:
/// - `title_key` is the title in lower case, computed by the store (`MovieRecord.titleKey`),
///   because SQLite's NOCASE folds only ASCII: the unique key and the listing order then
///   ignore case for every script, and the index serves both.
/// - `sales` is a whole number of dollars; the CHECK keeps negative values out whatever the
///   caller does, and STRICT keeps text out.
/// - Movies go with their user (`ON DELETE CASCADE`).
enum SchemaVersion3 {
    static let migration = SchemaMigration(
        version: 3, summary: "favorite movies",
        sql: """
            CREATE TABLE movies (
                id INTEGER PRIMARY KEY,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 256),
                title_key TEXT NOT NULL CHECK (length(title_key) > 0),
                genre TEXT NOT NULL CHECK (length(genre) BETWEEN 1 AND 128),
                sales INTEGER NOT NULL CHECK (sales >= 0),
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                UNIQUE (user_id, title_key)
            ) STRICT;
            """)
}
