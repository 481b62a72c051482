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

    @Test("a single-class SQLite file (version 15) becomes one class: its admins its owners, everyone else its students")
    func singleClassSQLiteFileBecomesOneClass() throws {
        try withTemporaryDatabase { path in
            let old = try SQLiteDatabase(path: path)
            try Schema.migrate(old, upTo: 15)
            try old.execute(
                "INSERT INTO users (name, password_hash, is_admin, created_at) VALUES ('teacher', 'h', 1, 5), ('ann', 'h', 0, 7)")
            try Self.expectOneClass(try SQLStore.sqlite(path: path))
        }
    }

    @Test(
        "a single-class PostgreSQL database (version 15) becomes one class: its admins its owners, everyone else its students",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func singleClassPostgresDatabaseBecomesOneClass() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let db = try PostgresConnection(conninfo)
        try PostgresSchema.migrate(db, upTo: 15)
        try db.execute(
            "INSERT INTO users (name, password_hash, is_admin, created_at) VALUES ('teacher', 'h', true, 5), ('ann', 'h', false, 7)")
        try Self.expectOneClass(try SQLStore.postgres(conninfo: conninfo))
    }

    /// The class an upgrade made of a single-class server's accounts `teacher` (an admin) and `ann`.
    static func expectOneClass(_ store: SQLStore) throws {
        let classes = try store.allClasses()
        #expect(classes.map(\.handle) == ["class"] && classes.first?.code == nil, "the server's class code stays the class's")
        let theClass = try #require(classes.first)
        let members = try store.members(classID: theClass.id).map { "\($0.name) \($0.role) \($0.joinedAt)" }
        #expect(members == ["teacher owner 5", "ann student 7"])
        #expect(try store.user(named: "teacher")?.isAdmin == true, "and still the server's admin")
        let later = try store.createClass(NewClass(handle: "next", name: "Next", code: "NEXT-CODE"), ownerID: nil, at: 9)
        #expect(later.id > theClass.id, "ids go on after the class the upgrade made")
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
