/// Version 16: classes and memberships. One server holds several classes; an account is a member
/// of each class it belongs to, with a role in it. What a single-class server held becomes its
/// first class (`class`, named "Class", with the server's own settings and class code): its admins
/// are that class's owners (and stay the server's admins), every other account a student in it.
enum SchemaVersion16 {
    static let migration = SchemaMigration(
        version: 16, summary: "classes and memberships",
        sql: """
            CREATE TABLE classes (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                handle TEXT NOT NULL UNIQUE
                    CHECK (length(handle) BETWEEN 2 AND 32 AND handle NOT GLOB '*[^a-z0-9-]*' AND handle NOT GLOB '-*'),
                name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 400),
                -- NULL: the server's class code (only the class an upgrade made starts without one).
                code TEXT UNIQUE CHECK (length(code) BETWEEN 4 AND 64),
                -- NULL in a setting: the server's.
                registration TEXT CHECK (registration IN ('open', 'roster', 'closed')),
                moderation TEXT CHECK (moderation IN ('off', 'queue')),
                snap_ttl_ms INTEGER CHECK (snap_ttl_ms > 0),
                posts_per_hour INTEGER CHECK (posts_per_hour >= 0),
                stored_bytes INTEGER CHECK (stored_bytes >= 0),
                created_at INTEGER NOT NULL,
                -- When its term ended (read-only from then on); 0 while it runs.
                ended_at INTEGER NOT NULL DEFAULT 0
            ) STRICT;
            CREATE TABLE memberships (
                class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                role TEXT NOT NULL CHECK (role IN ('owner', 'instructor', 'ta', 'student')),
                joined_at INTEGER NOT NULL,
                PRIMARY KEY (class_id, user_id)
            ) STRICT, WITHOUT ROWID;
            CREATE INDEX memberships_by_user ON memberships(user_id, joined_at, class_id);
            INSERT INTO classes (handle, name, created_at)
                VALUES ('class', 'Class', CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER));
            INSERT INTO memberships (class_id, user_id, role, joined_at)
                SELECT c.id, u.id, CASE WHEN u.is_admin THEN 'owner' ELSE 'student' END, u.created_at
                FROM users u, classes c WHERE c.handle = 'class';
            """)
}
