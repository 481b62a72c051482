import SQL
import Testing
import TestSupport
@testable import Server

/// One schema version number for both engines: version N means the same tables and rows in
/// SQLite and PostgreSQL.
@Suite("Schema versions")
struct SchemaVersionTests {
    @Test("both engines are at the same latest version, and PostgreSQL's steps are SQLite's numbers")
    func oneNumbering() {
        #expect(Schema.currentVersion == PostgresSchema.latest)
        let sqlite = Set(Schema.migrations.map(\.version))
        #expect(PostgresSchema.versions.allSatisfy { sqlite.contains($0.version) })
        #expect(PostgresSchema.versions.map(\.version) == Array(PostgresSchema.versions.first!.version...PostgresSchema.latest))
    }

    @Test("a PostgreSQL database numbered 1 to 4 before the engines shared numbers is renumbered and carried on from there",
          .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func legacyNumberingIsRenumbered() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let first = try SQLStore.postgres(conninfo: conninfo)
        let user = try first.createUser(name: "kept", passwordHash: "h", isAdmin: false, at: 1)
        // Back to what a server of the old numbering left: versions 1 to 4, the newest step not applied.
        let db = try #require(first.postgresConnection)
        try db.execute("DELETE FROM schema_versions WHERE version > \(7)")
        try db.executeScript("DROP TABLE device_tokens; DROP TABLE audit_log; DROP TABLE reports; DROP TABLE suspensions; "
                             + "DROP TABLE roster; DROP TABLE rejected_snaps; DROP TRIGGER access_epoch_user_changed ON users; "
                             + "ALTER TABLE users DROP COLUMN disabled, DROP COLUMN must_change_password, DROP COLUMN last_sign_in_at, "
                             + "DROP COLUMN one_time_hash; "
                             + "ALTER TABLE snaps DROP COLUMN awaiting_approval; "
                             + "CREATE TRIGGER access_epoch_user_changed AFTER UPDATE OF is_admin, password_hash ON users "
                             + "FOR EACH ROW EXECUTE FUNCTION bump_access_epoch()")
        try db.execute("UPDATE schema_versions SET version = version - 3")
        let versions: SQL = "SELECT version FROM schema_versions ORDER BY version"
        #expect(try db.query(versions) { $0.int64("version") } == [1, 2, 3, 4])

        // A writer opening it renumbers, applies only what is missing, and keeps the rows.
        let reopened = try SQLStore.postgres(conninfo: conninfo)
        #expect(try db.query(versions) { $0.int64("version") } == Array(4...PostgresSchema.latest))
        #expect(try reopened.user(id: user.id)?.name == "kept")
        _ = try SQLStore.postgres(conninfo: conninfo)
        #expect(try db.query(versions) { $0.int64("version") } == Array(4...PostgresSchema.latest), "a third open changes nothing")
    }

    @Test("a PostgreSQL database newer than this server is refused", .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func newerDatabaseRefused() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let db = try #require(try SQLStore.postgres(conninfo: conninfo).postgresConnection)
        try db.execute("INSERT INTO schema_versions (version, summary) VALUES (\(PostgresSchema.latest + 1), 'from the future')")
        #expect(throws: StoreError.self) { _ = try SQLStore.postgres(conninfo: conninfo) }
    }
}
