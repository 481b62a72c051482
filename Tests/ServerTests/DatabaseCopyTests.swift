import Foundation
import SQL
import TestSupport
import Testing

@testable import Server

/// Backup, restore and migrate (`DatabaseCopy`) lose nothing: every column of every table is
/// filled from the schema itself (`SchemaFiller`), copied by the real `snapshare-server` commands
/// through both engines, and compared after every hop, value for value.
@Suite("Database copies")
struct DatabaseCopyTests {
    /// A database's rows as read once: each table's rows, each row by column.
    struct Snapshot {
        let catalog: SchemaCatalog
        let rows: [String: [[String: SQLValue]]]
        let counters: [SchemaCatalog.Identity: Int64]
        let defaults: [String: [String: SQLValue]]

        init(_ store: SQLStore) throws {
            catalog = try store.engine.catalog()
            var rows: [String: [[String: SQLValue]]] = [:]
            var defaults: [String: [String: SQLValue]] = [:]
            for table in catalog.tables {
                let names = SQL(raw: table.columns.map { "\"\($0.name)\"" }.joined(separator: ", "))
                let read = try store.engine.connection.query("SELECT \(names) FROM \(raw: table.name)") { row in
                    Dictionary(
                        uniqueKeysWithValues: table.columns.map {
                            ($0.name, SchemaFiller.comparable($0.kind.value($0.name, in: row)))
                        })
                }
                rows[table.name] = read
                defaults[table.name] = try SchemaFiller(store: store).rules(of: table).defaults.mapValues(SchemaFiller.comparable)
            }
            self.rows = rows
            self.defaults = defaults
            counters = try store.engine.idCounters(
                of: catalog.tables.compactMap { table in
                    table.identity.map { SchemaCatalog.Identity(table: table.name, column: $0) }
                })
        }
    }

    /// The original, filled, as it was before any command ran, and what each copy must hold.
    struct Original {
        let original: Snapshot

        /// The filler reached every table (but PostgreSQL's record of its schema steps) and
        /// every column, each holding a value other than its default in some row.
        init(filled store: SQLStore) throws {
            original = try Snapshot(store)
            for table in original.catalog.tables where table.name != "schema_versions" {
                let rows = original.rows[table.name]!
                #expect(!rows.isEmpty, "\(table.name) is filled")
                for column in table.columns {
                    let fresh = original.defaults[table.name]?[column.name] ?? .null
                    #expect(
                        rows.contains { $0[column.name] != .null && $0[column.name] != fresh },
                        "\(table.name).\(column.name) is filled")
                }
            }
        }

        /// Expects `copy` (after `restores` restores, its audit log holding the entries `audited` of
        /// the commands that copied into it since) to hold the original's rows: every table and
        /// column but those the copy leaves out on purpose equal, value for value; those left out as
        /// a new database has them; every id counter carried over (and jumped by each restore).
        func expect(_ copy: SQLStore, isTheOriginalAfter hop: String, restores: Int, audited: [String]) throws {
            let copied = try Snapshot(copy)
            for table in original.catalog.tables {
                let name = table.name
                // Rows are matched by the original's key (PostgreSQL's roster has none: all its columns).
                let key = table.primaryKey.isEmpty ? table.columns.map(\.name) : table.primaryKey
                func keyed(_ rows: [[String: SQLValue]]) -> [[SQLValue]: [String: SQLValue]] {
                    Dictionary(uniqueKeysWithValues: rows.map { row in (key.map { row[$0] ?? .null }, row) })
                }
                let rows = keyed(original.rows[name]!)
                let copiedRows = keyed(copied.rows[name] ?? [])
                switch name {
                case "schema_versions":
                    continue // each PostgreSQL database's own record of its schema steps
                case "access_epoch":
                    #expect(copiedRows == rows, "\(hop): the access epoch is carried over by value")
                    continue
                case _ where DatabaseCopy.leftOut.contains(name):
                    #expect(!rows.isEmpty && copiedRows.isEmpty, "\(hop): \(name) is left out: the copy starts without its rows")
                    continue
                case "audit_log":
                    // Each command that copied into a database recorded itself there with the copy (a
                    // backup records itself in the database it read, after).
                    let added = copiedRows.filter { rows[$0.key] == nil }.values.sorted { "\($0["id"]!)" < "\($1["id"]!)" }
                    #expect(added.map { $0["action"]! } == audited.map { .text($0) }, "\(hop): \(added)")
                default:
                    #expect(copiedRows.count == rows.count, "\(hop): \(name) has \(copiedRows.count) rows, the original \(rows.count)")
                }
                for (key, row) in rows {
                    guard let other = copiedRows[key] else {
                        Issue.record("\(hop): \(name) lost the row \(DatabaseCopyTests.describe(key))")
                        continue
                    }
                    for column in table.columns {
                        if DatabaseCopy.leftOut.contains("\(name).\(column.name)") {
                            let fresh = original.defaults[name]?[column.name]
                            #expect(
                                row[column.name] != fresh && other[column.name] == fresh,
                                "\(hop): \(name).\(column.name) is left out: the copy holds its default")
                        } else if row[column.name] != other[column.name] {
                            Issue.record(
                                """
                                \(hop): \(name).\(column.name) of row \(DatabaseCopyTests.describe(key)) is \
                                \(DatabaseCopyTests.describe([other[column.name]!])), not \(DatabaseCopyTests.describe([row[column.name]!]))
                                """)
                        }
                    }
                }
            }
            // Each counter is carried over and jumped by each restore; a table the commands
            // added rows to on the way (the audit log) has moved on by at most as many before
            // each jump.
            for (identity, counter) in original.counters {
                let added = Int64((copied.rows[identity.table]?.count ?? 0) - (original.rows[identity.table]?.count ?? 0))
                var (least, most) = (counter, counter + added)
                for _ in 0..<restores { (least, most) = (Backup.jump(least), Backup.jump(most)) }
                #expect(
                    counter > 0 && (least...most).contains(copied.counters[identity] ?? -1),
                    "\(hop): \(identity.table)'s counter \(copied.counters[identity] ?? -1) after \(restores) restores of \(counter)")
            }
        }
    }

    /// Values for a message: blobs by their length and first bytes.
    static func describe(_ values: [SQLValue]) -> String {
        values.map { value in
            if case .blob(let bytes) = value { return "\(bytes.count) bytes \(bytes.prefix(4).map { String($0, radix: 16) })…" }
            return "\(value)"
        }.joined(separator: ", ")
    }

    static func run(_ arguments: [String]) throws {
        let result = try Subprocess.run("snapshare-server", arguments, timeout: 300)
        #expect(result.status == 0, "\(arguments.first!): \(result.stderr)")
        if result.status != 0 { throw ProcessError("snapshare-server \(arguments.first!) failed") }
    }

    static func sqlite(in folder: String, readOnly: Bool = true) throws -> SQLStore {
        try SQLStore.sqlite(path: ServerConfiguration.databasePath(in: folder), readOnly: readOnly)
    }

    @Test(
        "every column of every table, filled on SQLite, survives backup, restore into PostgreSQL, backup, restore and migrate",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func everyColumnSurvivesFromSQLite() throws {
        let cluster = PostgresCluster.shared!
        let directory = TemporaryDirectory("snapshare-copy-sqlite")
        let source = directory.file("source")
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let filled = try Self.sqlite(in: source, readOnly: false)
        try SchemaFiller(store: filled).fill()
        let test = try Original(filled: filled)
        let (first, dropFirst) = try cluster.makeDatabase()
        defer { dropFirst() }
        let (second, dropSecond) = try cluster.makeDatabase()
        defer { dropSecond() }

        try Self.run(["backup", "--to", directory.file("one.backup"), "--data", source])
        try test.expect(
            try SQLStore.sqlite(path: directory.file("one.backup"), readOnly: true), isTheOriginalAfter: "backup",
            restores: 0, audited: [])
        try Self.run(["restore", "--from", directory.file("one.backup"), "--database", first])
        try test.expect(
            try SQLStore.postgres(conninfo: first, readOnly: true), isTheOriginalAfter: "restore into PostgreSQL",
            restores: 1, audited: ["restore"])
        try Self.run(["backup", "--to", directory.file("two.backup"), "--database", first])
        try test.expect(
            try SQLStore.sqlite(path: directory.file("two.backup"), readOnly: true), isTheOriginalAfter: "backup of PostgreSQL",
            restores: 1, audited: ["restore"])
        try Self.run(["restore", "--from", directory.file("two.backup"), "--data", directory.file("restored")])
        try test.expect(
            try Self.sqlite(in: directory.file("restored")), isTheOriginalAfter: "restore into SQLite",
            restores: 2, audited: ["restore", "restore"])
        try Self.run(["migrate", "--from", directory.file("restored"), "--to", second])
        try test.expect(
            try SQLStore.postgres(conninfo: second, readOnly: true), isTheOriginalAfter: "migrate",
            restores: 2, audited: ["restore", "restore", "migrate"])
    }

    @Test(
        "every column of every table, filled on PostgreSQL, survives backup, restore into SQLite, migrate, backup and restore",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func everyColumnSurvivesFromPostgreSQL() throws {
        let cluster = PostgresCluster.shared!
        let directory = TemporaryDirectory("snapshare-copy-postgresql")
        let (source, dropSource) = try cluster.makeDatabase()
        defer { dropSource() }
        let (migrated, dropMigrated) = try cluster.makeDatabase()
        defer { dropMigrated() }
        let filled = try SQLStore.postgres(conninfo: source)
        try SchemaFiller(store: filled).fill(except: ["schema_versions"])
        let test = try Original(filled: filled)

        try Self.run(["backup", "--to", directory.file("one.backup"), "--database", source])
        try test.expect(
            try SQLStore.sqlite(path: directory.file("one.backup"), readOnly: true), isTheOriginalAfter: "backup of PostgreSQL",
            restores: 0, audited: [])
        try Self.run(["restore", "--from", directory.file("one.backup"), "--data", directory.file("restored")])
        try test.expect(
            try Self.sqlite(in: directory.file("restored")), isTheOriginalAfter: "restore into SQLite",
            restores: 1, audited: ["restore"])
        try Self.run(["migrate", "--from", directory.file("restored"), "--to", migrated])
        try test.expect(
            try SQLStore.postgres(conninfo: migrated, readOnly: true), isTheOriginalAfter: "migrate",
            restores: 1, audited: ["restore", "migrate"])
        try Self.run(["backup", "--to", directory.file("two.backup"), "--database", migrated])
        try Self.run(["restore", "--from", directory.file("two.backup"), "--data", directory.file("again")])
        try test.expect(
            try Self.sqlite(in: directory.file("again")), isTheOriginalAfter: "backup and restore of PostgreSQL", restores: 2,
            audited: ["restore", "migrate", "restore"])
    }

    @Test("a column the target's schema lacks stops a backup before anything is written, naming the column")
    func columnTheTargetLacksStopsTheCopy() throws {
        let directory = TemporaryDirectory("snapshare-copy-extra-column")
        let source = directory.file("source")
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let store = try Self.sqlite(in: source, readOnly: false)
        _ = try store.createUser(name: "ada", passwordHash: "h", isAdmin: true, at: 1)
        // As if a migration step added a column to SQLite's schema and not to the other's.
        try store.engine.connection.execute("ALTER TABLE users ADD COLUMN nickname TEXT NOT NULL DEFAULT 'ace'")
        let result = try Subprocess.run("snapshare-server", ["backup", "--to", directory.file("class.backup"), "--data", source])
        #expect(result.status != 0 && result.stderr.contains("the target has no column users.nickname"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("class.backup")))
    }
}
