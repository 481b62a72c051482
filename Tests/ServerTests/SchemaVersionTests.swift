import PostgreSQL
import SQL
import SQLite
import TestSupport
import Testing

@testable import Server

/// One schema version number for both engines, declared once (`Schema.steps`): version N means
/// the same tables and rows in SQLite and PostgreSQL. Older databases are made by applying the
/// steps only up to an older version, as an older server did.
@Suite("Schema versions")
struct SchemaVersionTests {
    @Test("one list of steps says the newest version: SQLite's run 1 to it, PostgreSQL's 4 to it, each once")
    func oneNumbering() {
        #expect(Schema.steps.map(\.version) == Array(1...Schema.currentVersion))
        #expect(PostgresSchema.versions.map(\.version) == Array(4...Schema.currentVersion))
    }

    @Test("a SQLite file an older server left at an older version is brought up to the newest, its rows kept")
    func olderSQLiteFileIsMigrated() throws {
        try withTemporaryDatabase { path in
            let old = try SQLiteDatabase(path: path)
            try Schema.migrate(old, upTo: 12)
            #expect(try old.userVersion() == 12)
            try old.execute("INSERT INTO users (name, password_hash, is_admin, created_at) VALUES ('kept', 'h', 0, 1)")
            let store = try SQLStore.sqlite(path: path)
            #expect(try store.sqliteDatabase!.userVersion() == Schema.currentVersion)
            #expect(try store.user(named: "kept")?.name == "kept")
        }
    }

    @Test("a step that rebuilds a table others refer to keeps their rows (foreign keys off, then checked); without saying so it loses them")
    func rebuildingStepKeepsReferringRows() throws {
        let parent = SchemaMigration(
            version: 1, summary: "a parent and its children",
            sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE) STRICT;
                CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER NOT NULL REFERENCES parent(id) ON DELETE CASCADE) STRICT;
                INSERT INTO parent VALUES (1, 'a'), (2, 'b');
                INSERT INTO child VALUES (10, 1), (11, 2), (12, 2);
                """)
        let rebuild = """
            CREATE TABLE parent_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL DEFAULT 'x') STRICT;
            INSERT INTO parent_new (id, name) SELECT id, name FROM parent;
            DROP TABLE parent;
            ALTER TABLE parent_new RENAME TO parent;
            """
        func children(rebuildsTables: Bool) throws -> Int64? {
            try withTemporaryDatabase { path in
                let database = try SQLiteDatabase(path: path)
                let step = SchemaMigration(version: 2, summary: "parent rebuilt", sql: rebuild, rebuildsTables: rebuildsTables)
                try Schema.migrate(database, through: [parent, step], upTo: 2)
                #expect(try database.userVersion() == 2)
                return try database.queryFirst("SELECT count(*) AS n FROM child") { $0.int64("n") }
            }
        }
        #expect(try children(rebuildsTables: true) == 3)
        #expect(try children(rebuildsTables: false) == 0, "dropping the old table deleted every child (ON DELETE CASCADE)")

        // A rebuild that leaves a reference pointing nowhere is refused, and the file stays at its version.
        try withTemporaryDatabase { path in
            let database = try SQLiteDatabase(path: path)
            let lossy = SchemaMigration(
                version: 2, summary: "parent rebuilt without b",
                sql: rebuild.replacingOccurrences(of: "FROM parent;", with: "FROM parent WHERE name = 'a';"), rebuildsTables: true)
            #expect(throws: StoreError.self) { try Schema.migrate(database, through: [parent, lossy], upTo: 2) }
            #expect(try database.userVersion() == 1)
            #expect(try database.queryFirst("SELECT count(*) AS n FROM parent") { $0.int64("n") } == 2)
        }
    }

    @Test("a single-class SQLite file (version 15) becomes one class: admins its owners, the rest students, the rest of it its own")
    func singleClassSQLiteFileBecomesOneClass() throws {
        try withTemporaryDatabase { path in
            let old = try SQLiteDatabase(path: path)
            try Schema.migrate(old, upTo: 15)
            try old.execute(
                "INSERT INTO users (name, password_hash, is_admin, created_at) VALUES ('teacher', 'h', 1, 5), ('ann', 'h', 0, 7)")
            for statement in Self.singleClassRows { try old.execute(statement) }
            try Self.expectOneClass(try SQLStore.sqlite(path: path))
        }
    }

    @Test(
        "a single-class PostgreSQL database (version 15) becomes one class: admins its owners, the rest students, the rest of it its own",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func singleClassPostgresDatabaseBecomesOneClass() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let db = try PostgresConnection(conninfo)
        try PostgresSchema.migrate(db, upTo: 15)
        try db.execute(
            "INSERT INTO users (name, password_hash, is_admin, created_at) VALUES ('teacher', 'h', true, 5), ('ann', 'h', false, 7)")
        for statement in Self.singleClassRows { try db.execute(statement) }
        try Self.expectOneClass(try SQLStore.postgres(conninfo: conninfo))
    }

    /// What a single-class server holds besides its accounts, in SQL both engines take: a feed
    /// made and deleted (the highest id handed out), ann's roster entry and her suspension.
    static let singleClassRows: [SQL] = [
        "INSERT INTO feeds (name, created_at) VALUES ('Week 1', 3)",
        "DELETE FROM feeds WHERE name = 'Week 1'",
        """
        INSERT INTO roster (name, display_name, role, added_at, claimed_by)
        VALUES ('ann', 'Ann', 'student', 1, (SELECT id FROM users WHERE name = 'ann'))
        """,
        """
        INSERT INTO suspensions (user_id, until, reason, suspended_by, suspended_at)
        VALUES ((SELECT id FROM users WHERE name = 'ann'), 9000000000000, 'spam', 'teacher', 1)
        """,
    ]

    /// The class an upgrade made of a single-class server's accounts `teacher` (an admin) and
    /// `ann`, with its feeds, roster and suspensions (`singleClassRows`).
    static func expectOneClass(_ store: SQLStore) throws {
        let classes = try store.allClasses()
        #expect(classes.map(\.handle) == ["class"] && classes.first?.code == nil, "the server's class code stays the class's")
        let theClass = try #require(classes.first)
        let members = try store.members(classID: theClass.id).map { "\($0.name) \($0.role) \($0.joinedAt)" }
        #expect(members == ["teacher owner 5", "ann student 7"])
        #expect(try store.user(named: "teacher")?.isAdmin == true, "and still the server's admin")
        let ann = try #require(try store.user(named: "ann"))
        #expect(try store.feedSummaries(classID: theClass.id, viewerID: ann.id, now: 0).map(\.name) == ["Dog Spots", "Memes", "Random"])
        #expect(try store.rosterEntry(named: "ann", classID: theClass.id)?.claimedBy == ann.id)
        #expect(try store.suspension(userID: ann.id, classID: theClass.id, now: 10)?.reason == "spam")
        let later = try store.createClass(NewClass(handle: "next", name: "Next", code: "NEXT-CODE"), ownerID: nil, at: 9)
        #expect(later.id > theClass.id, "ids go on after the class the upgrade made")
        // The new class has feeds of the same names, of its own, with ids never handed out before.
        let oldMemes = try #require(try store.feed(named: "Memes", classID: theClass.id))
        let newMemes = try #require(try store.feed(named: "memes", classID: later.id))
        #expect(newMemes.id > oldMemes.id + 3, "past the deleted Week 1 too: \(newMemes.id)")
        #expect(try store.suspension(userID: ann.id, classID: later.id, now: 10) == nil, "a suspension is of its class")
        #expect(try store.rosterEntry(named: "ann", classID: later.id) == nil)
    }

    @Test(
        "a PostgreSQL database numbered 1 to 4 before the engines shared numbers is renumbered and carried on from there",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func legacyNumberingIsRenumbered() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        // What a server of the old numbering left: its four steps (versions 4 to 7 today),
        // recorded as 1 to 4, with a user in it.
        let db = try PostgresConnection(conninfo)
        try PostgresSchema.migrate(db, upTo: 7)
        try db.execute("INSERT INTO users (name, password_hash, is_admin, created_at) VALUES ('kept', 'h', false, 1)")
        try db.execute("UPDATE schema_versions SET version = version - 3")
        let versions: SQL = "SELECT version FROM schema_versions ORDER BY version"
        #expect(try db.query(versions) { $0.int64("version") } == [1, 2, 3, 4])

        // A writer opening it renumbers, applies only what is missing, and keeps the rows.
        let reopened = try SQLStore.postgres(conninfo: conninfo)
        #expect(try db.query(versions) { $0.int64("version") } == Array(4...Schema.currentVersion))
        #expect(try reopened.user(named: "kept")?.name == "kept")
        _ = try SQLStore.postgres(conninfo: conninfo)
        #expect(try db.query(versions) { $0.int64("version") } == Array(4...Schema.currentVersion), "a third open changes nothing")
    }

    @Test(
        "a PostgreSQL database newer than this server is refused",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func newerDatabaseRefused() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let db = try #require(try SQLStore.postgres(conninfo: conninfo).postgresConnection)
        try db.execute("INSERT INTO schema_versions (version, summary) VALUES (\(Schema.currentVersion + 1), 'from the future')")
        #expect(throws: StoreError.self) { _ = try SQLStore.postgres(conninfo: conninfo) }
    }
}
