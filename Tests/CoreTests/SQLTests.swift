import Foundation
import PostgreSQL
import SQL
import SQLite
import TestSupport
import Testing

/// Statements written once with `SQL`, rendered for each engine and run on both.
@Suite("SQL written once")
struct SQLTests {
    @Test("each interpolated value gets the next placeholder, in the engine's style")
    func placeholdersNumberTheValuesInOrder() {
        let id: Int64 = 7
        let name = "Memes"
        let sql: SQL = "SELECT id FROM feeds WHERE id = \(id) AND name = \(name) OR id = \(id)"
        let sqlite = sql.rendered { "?\($0)" }
        let postgres = sql.rendered { "$\($0)" }
        #expect(sqlite.text == "SELECT id FROM feeds WHERE id = ?1 AND name = ?2 OR id = ?3")
        #expect(postgres.text == "SELECT id FROM feeds WHERE id = $1 AND name = $2 OR id = $3")
        #expect(sqlite.values == [.integer(7), .text("Memes"), .integer(7)])
        #expect(sql.description == "SELECT id FROM feeds WHERE id = ? AND name = ? OR id = ?")
    }

    @Test("a value is never text: quotes and semicolons in it stay data")
    func valuesNeverBecomeText() {
        let hostile = "x'); DROP TABLE users; --"
        let rendered = SQL("SELECT 1 WHERE name = \(hostile)").rendered { "?\($0)" }
        #expect(rendered.text == "SELECT 1 WHERE name = ?1")
        #expect(rendered.values == [.text(hostile)])
    }

    @Test("raw fragments, nested statements, lists and joins keep the numbering running")
    func compositionKeepsNumbering() {
        let columns: SQL = "id, name"
        let filter: SQL = "kind = \("login")"
        let rows = SQL(joining: [1, 2].map { "(\($0), \("a"))" }, separator: ", ")
        let sql: SQL =
            "SELECT \(columns) FROM \(raw: "throttles") WHERE \(filter) AND x IN (\(list: [Int64(5), 6])) AND (a, b) IN (VALUES \(rows))"
        let rendered = sql.rendered { "$\($0)" }
        #expect(
            rendered.text == "SELECT id, name FROM throttles WHERE kind = $1 AND x IN ($2, $3) AND (a, b) IN (VALUES ($4, $5), ($6, $7))")
        #expect(rendered.values == [.text("login"), .integer(5), .integer(6), .integer(1), .text("a"), .integer(2), .text("a")])
        #expect(("SELECT \(1)" + " WHERE y = \(2)" as SQL).rendered { "?\($0)" }.text == "SELECT ?1 WHERE y = ?2")
    }

    @Test("optionals bind NULL, enums bind their raw values, bytes bind as blobs")
    func bindableValues() {
        enum Color: UInt8, SQLBindable { case red = 3 }
        let missing: String? = nil
        let sql: SQL = "VALUES (\(missing), \(Color.red), \([UInt8]([1, 2])), \(true), \(1.5))"
        #expect(sql.rendered { "?\($0)" }.values == [.null, .integer(3), .blob([1, 2]), .bool(true), .real(1.5)])
    }

    /// One table of every value type, on each engine this machine has.
    static var connections: [(String, () throws -> (any SQLConnection, () -> Void))] {
        var engines: [(String, () throws -> (any SQLConnection, () -> Void))] = [
            (
                "SQLite",
                {
                    let folder = TemporaryDirectory()
                    let database = try SQLiteDatabase(path: folder.file("t.db"))
                    try database.exec("CREATE TABLE t (i INTEGER, d REAL, b INTEGER, s TEXT, y BLOB, z TEXT)")
                    return (database, { _ = folder })
                }
            )
        ]
        if let cluster = PostgresCluster.shared {
            engines.append(
                (
                    "PostgreSQL",
                    {
                        let (conninfo, drop) = try cluster.makeDatabase()
                        let connection = try PostgresConnection(conninfo)
                        try connection.executeScript("CREATE TABLE t (i bigint, d double precision, b boolean, s text, y bytea, z text)")
                        return (connection, drop)
                    }
                ))
        }
        return engines
    }

    @Test("one statement runs on both engines and reads back the same values by column name")
    func sameStatementOnBothEngines() throws {
        let bytes: [UInt8] = [0, 1, 0xFF, 0x5C]
        let missing: String? = nil
        for (engine, open) in Self.connections {
            let (connection, close) = try open()
            defer { close() }
            _ = try connection.transaction {
                try connection.execute(
                    "INSERT INTO t VALUES (\(Int64.min), \(-83.743), \(true), \("Île ✓ 'quoted'"), \(bytes), \(missing))")
            }
            let read = try connection.queryFirst("SELECT i, d, b, s, y, z FROM t WHERE NOT (b = \(false)) AND i = \(Int64.min)") { row in
                (row.int64("i"), row.double("d"), row.bool("b"), row.string("s"), row.bytes("y"), row.isNull("z"))
            }
            let row = try #require(read, "\(engine)")
            #expect(row.0 == Int64.min && row.1 == -83.743 && row.2 && row.3 == "Île ✓ 'quoted'" && row.4 == bytes && row.5, "\(engine)")
            #expect(try connection.execute("DELETE FROM t WHERE s = \("Île ✓ 'quoted'")") == 1, "\(engine)")
        }
    }

    @Test("the same statement with other values is prepared once: the statement caches are keyed by the rendered text")
    func statementsArePreparedOnce() throws {
        for (engine, open) in Self.connections {
            let (connection, close) = try open()
            defer { close() }
            func prepared() -> Int {
                (connection as? SQLiteDatabase)?.preparedStatementCount ?? (connection as? PostgresConnection)?.preparedStatementCount ?? -1
            }
            func round(_ value: Int64) throws {
                try connection.execute("INSERT INTO t (i, s) VALUES (\(value), \("row \(value)"))")
                _ = try connection.queryFirst("SELECT s FROM t WHERE i = \(value)") { $0.string("s") }
            }
            try round(0)
            let warm = prepared()
            #expect(warm >= 2, "\(engine)")
            for value in 1...50 { try round(Int64(value)) }
            #expect(prepared() == warm, "\(engine): 100 more runs with other values prepared nothing new")
        }
    }

    @Test("a primary-key conflict is classified the same on both engines")
    func failuresAreClassifiedOnce() throws {
        for (engine, open) in Self.connections {
            let (connection, close) = try open()
            defer { close() }
            if let sqlite = connection as? SQLiteDatabase {
                try sqlite.exec("CREATE TABLE k (id INTEGER PRIMARY KEY)")
            } else if let postgres = connection as? PostgresConnection {
                try postgres.executeScript("CREATE TABLE k (id bigint PRIMARY KEY)")
            }
            try connection.execute("INSERT INTO k VALUES (\(1))")
            #expect(throws: (any Error).self) { try connection.execute("INSERT INTO k VALUES (\(1))") }
            do {
                try connection.execute("INSERT INTO k VALUES (\(1))")
            } catch let failure as any SQLFailure {
                #expect(failure.failureKind == .uniqueness, "\(engine)")
            }
        }
    }
}
