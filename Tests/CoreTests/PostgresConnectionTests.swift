import PostgreSQL
import SQL
import TestSupport
import Testing

/// The libpq layer against a real PostgreSQL (a throwaway cluster started for the test process).
@Suite("PostgreSQL connection", .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
struct PostgresConnectionTests {
    static func withDatabase(_ body: (PostgresConnection, String) throws -> Void) throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        try body(try PostgresConnection(conninfo), conninfo)
    }

    @Test("every value type goes in as a binary parameter and comes back by column name")
    func valuesRoundTrip() throws {
        try Self.withDatabase { db, _ in
            try db.executeScript("CREATE TABLE t (i bigint, n integer, d double precision, b boolean, s text, y bytea, z text)")
            let bytes: [UInt8] = [0, 1, 2, 0xFF, 0x5C, 0x78]
            let missing: String? = nil
            try db.execute(
                """
                INSERT INTO t VALUES (\(Int64(-9_007_199_254_740_993)), \(42), \(-83.743), \(true), \
                \("Île-de-France ✓"), \(bytes), \(missing))
                """)
            let rows: [Void] = try db.query("SELECT i, n, d, b, s, y, z, count(*) OVER () AS c FROM t") { row in
                #expect(row.int64("i") == -9_007_199_254_740_993 && row.int("n") == 42 && row.int64("c") == 1)
                #expect(row.double("d") == -83.743 && row.bool("b") && row.string("s") == "Île-de-France ✓")
                #expect(row.bytes("y") == bytes && row.isNull("z") && row.string("z") == "")
            }
            #expect(rows.count == 1)
        }
    }

    @Test("a statement first run with NULL where a narrower integer goes runs again with a value: each set of types is prepared apart")
    func nullThenValueInANarrowColumn() throws {
        try Self.withDatabase { db, _ in
            try db.executeScript("CREATE TABLE t (k bigint, state smallint, n integer)")
            for (key, state, number) in [(Int64(1), nil, nil), (2, 3, 40_000), (3, nil, 7), (4, 5, nil)] as [(Int64, Int64?, Int64?)] {
                try db.execute("INSERT INTO t (k, state, n) VALUES (\(key), \(state), \(number))")
            }
            let rows = try db.query("SELECT k, state, n FROM t ORDER BY k") { row in
                [row.int64("k"), row.isNull("state") ? -1 : row.int64("state"), row.isNull("n") ? -1 : row.int64("n")]
            }
            #expect(rows == [[1, -1, -1], [2, 3, 40_000], [3, -1, 7], [4, 5, -1]])
            #expect(db.preparedStatementCount == 5, "one per set of types the insert ran with, and the query")
        }
    }

    @Test("a primary-key conflict is told apart by SQLSTATE, and the connection stays usable")
    func uniquenessViolation() throws {
        try Self.withDatabase { db, _ in
            try db.executeScript("CREATE TABLE views (snap bigint, viewer bigint, PRIMARY KEY (snap, viewer))")
            try db.execute("INSERT INTO views VALUES (\(1), \(2))")
            #expect {
                try db.execute("INSERT INTO views VALUES (\(1), \(2))")
            } throws: { ($0 as? PostgresError)?.isUniquenessViolation == true && ($0 as? PostgresError)?.failureKind == .uniqueness }
            #expect(try db.queryFirst("SELECT count(*) AS n FROM views") { $0.int64("n") } == 1)
        }
    }

    @Test("a transaction commits or rolls back as a whole; a nested one undoes only itself")
    func transactions() throws {
        struct Failed: Error {}
        try Self.withDatabase { db, conninfo in
            try db.executeScript("CREATE TABLE t (v bigint)")
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (\(1))")
                try? db.transaction {
                    try db.execute("INSERT INTO t VALUES (\(2))")
                    throw Failed()
                }
            }
            #expect(throws: Failed.self) {
                try db.transaction {
                    try db.execute("INSERT INTO t VALUES (\(3))")
                    throw Failed()
                }
            }
            // Seen from another connection: only what was committed.
            let other = try PostgresConnection(conninfo)
            #expect(try other.query("SELECT v FROM t ORDER BY v") { $0.int64("v") } == [1])
        }
    }

    @Test("a server that is not there is a connection failure with libpq's reason")
    func refusedConnection() {
        #expect {
            _ = try PostgresConnection("host=/nonexistent port=1 user=postgres dbname=x connect_timeout=2")
        } throws: { error in
            guard let error = error as? PostgresError else { return false }
            return error.isConnectionFailure && error.message.contains("cannot connect")
        }
    }
}
