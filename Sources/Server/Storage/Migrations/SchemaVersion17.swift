/// Version 17: a class's data belongs to it. Feeds, roster entries and suspensions get the class
/// they are of (what a single-class server held is its first class's, version 16); a feed's
/// name, and a roster name, is unique within its class, so two classes may each have `Memes`;
/// a student suspended in one class may still post in another. Snaps, views, reports and
/// rejection notices belong to their feed's class. An audit entry names the class it acted in
/// (NULL: the whole server, as every entry before this version). A membership's change moves the
/// access epoch, so live connections take up their new role.
///
/// SQLite cannot change a table's unique constraints or key in place: `feeds`, `roster` and
/// `suspensions` are made anew with their rows (`rebuildsTables`), and the feeds' counter keeps
/// its place, so a deleted feed's id is never handed out again.
enum SchemaVersion17 {
    static let migration = SchemaMigration(
        version: 17, summary: "feeds, roster and suspensions per class",
        sql: """
            CREATE TABLE feeds_per_class (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL COLLATE NOCASE CHECK (length(name) > 0),
                created_at INTEGER NOT NULL,
                class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
                UNIQUE (class_id, name)
            ) STRICT;
            INSERT INTO feeds_per_class (id, class_id, name, created_at)
                SELECT id, (SELECT min(id) FROM classes), name, created_at FROM feeds;
            DELETE FROM sqlite_sequence WHERE name = 'feeds_per_class';
            INSERT INTO sqlite_sequence (name, seq) SELECT 'feeds_per_class', seq FROM sqlite_sequence WHERE name = 'feeds';
            DROP TABLE feeds;
            ALTER TABLE feeds_per_class RENAME TO feeds;

            CREATE TABLE roster_per_class (
                name TEXT NOT NULL COLLATE NOCASE,
                display_name TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('student', 'admin')),
                added_at INTEGER NOT NULL,
                claimed_by INTEGER REFERENCES users(id) ON DELETE CASCADE,
                class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
                PRIMARY KEY (class_id, name)
            ) STRICT;
            INSERT INTO roster_per_class (class_id, name, display_name, role, added_at, claimed_by)
                SELECT (SELECT min(id) FROM classes), name, display_name, role, added_at, claimed_by FROM roster;
            DROP TABLE roster;
            ALTER TABLE roster_per_class RENAME TO roster;
            CREATE UNIQUE INDEX roster_by_claimant ON roster(class_id, claimed_by) WHERE claimed_by IS NOT NULL;
            CREATE INDEX roster_claims ON roster(claimed_by) WHERE claimed_by IS NOT NULL;

            CREATE TABLE suspensions_per_class (
                user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                until INTEGER NOT NULL,
                reason TEXT NOT NULL,
                suspended_by TEXT NOT NULL,
                suspended_at INTEGER NOT NULL,
                class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
                PRIMARY KEY (class_id, user_id)
            ) STRICT;
            INSERT INTO suspensions_per_class (class_id, user_id, until, reason, suspended_by, suspended_at)
                SELECT (SELECT min(id) FROM classes), user_id, until, reason, suspended_by, suspended_at FROM suspensions;
            DROP TABLE suspensions;
            ALTER TABLE suspensions_per_class RENAME TO suspensions;
            CREATE INDEX suspensions_by_user ON suspensions(user_id);

            -- A membership made, changed or ended moves the access epoch: live connections learn
            -- their class and role anew (SessionStore.sessionAccess).
            CREATE TRIGGER access_epoch_membership_added AFTER INSERT ON memberships
            BEGIN
                UPDATE access_epoch SET value = value + 1 WHERE id = 1;
            END;
            CREATE TRIGGER access_epoch_membership_changed AFTER UPDATE OF role ON memberships
            BEGIN
                UPDATE access_epoch SET value = value + 1 WHERE id = 1;
            END;
            CREATE TRIGGER access_epoch_membership_ended AFTER DELETE ON memberships
            BEGIN
                UPDATE access_epoch SET value = value + 1 WHERE id = 1;
            END;

            -- No reference: an entry outlives its class, whose id is never handed out again.
            ALTER TABLE audit_log ADD COLUMN class_id INTEGER;
            CREATE INDEX audit_log_by_class ON audit_log(class_id, at);
            """,
        rebuildsTables: true)
}
