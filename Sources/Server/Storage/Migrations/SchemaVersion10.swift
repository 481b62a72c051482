/// Version 10: movie ids are never handed out again. Every other table with an id had
/// AUTOINCREMENT from its start; `movies` (version 3) reused the largest id after a delete.
/// SQLite cannot add AUTOINCREMENT to a table, so the table is made again with its rows; its
/// counter starts at the largest id it holds. (PostgreSQL's identities never went back.)
enum SchemaVersion10 {
    static let migration = SchemaMigration(
        version: 10, summary: "movie ids never reused",
        sql: """
            CREATE TABLE movies_autoincrement (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 256),
                title_key TEXT NOT NULL CHECK (length(title_key) > 0),
                genre TEXT NOT NULL CHECK (length(genre) BETWEEN 1 AND 128),
                sales INTEGER NOT NULL CHECK (sales >= 0),
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                UNIQUE (user_id, title_key)
            ) STRICT;
            INSERT INTO movies_autoincrement (id, user_id, title, title_key, genre, sales, created_at, updated_at)
                SELECT id, user_id, title, title_key, genre, sales, created_at, updated_at FROM movies;
            DROP TABLE movies;
            ALTER TABLE movies_autoincrement RENAME TO movies;
            """)
}
