import PostgreSQL
import SQL
import SQLite
import TestSupport
import Testing

@testable import Server

/// Each engine describes its own schema (`SchemaCatalog`), and the two descriptions agree: the
/// same tables, columns, keys, foreign keys and counters at every version, so a copy between
/// engines (backup, restore, migrate), which reads its tables from them, loses nothing.
@Suite("Schema catalogs")
struct SchemaCatalogTests {
    /// PostgreSQL's record of its own schema steps, which SQLite keeps in `user_version`.
    static let postgresBookkeeping: Set<String> = ["schema_versions"]

    /// The catalog of a new SQLite database at `version`.
    static func sqliteCatalog(at version: Int64 = Schema.currentVersion) throws -> SchemaCatalog {
        try withTemporaryDatabase { path in
            let database = try SQLiteDatabase(path: path)
            try Schema.migrate(database, upTo: version)
            return try SQLiteEngine(database: database).catalog()
        }
    }

    /// The catalog of a new PostgreSQL database at `version`.
    static func postgresCatalog(at version: Int64 = Schema.currentVersion) throws -> SchemaCatalog {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let connection = try PostgresConnection(conninfo)
        try PostgresSchema.migrate(connection, upTo: version)
        return try SQLStore.postgres(conninfo: conninfo, readOnly: true).engine.catalog()
    }

    /// Every way the two catalogs differ, in words.
    static func differences(_ sqlite: SchemaCatalog, _ postgres: SchemaCatalog) -> [String] {
        var found: [String] = []
        let names = Set(sqlite.tables.map(\.name))
        let postgresNames = Set(postgres.tables.map(\.name)).subtracting(postgresBookkeeping)
        found += names.subtracting(postgresNames).sorted().map { "only SQLite has \($0)" }
        found += postgresNames.subtracting(names).sorted().map { "only PostgreSQL has \($0)" }
        for name in names.intersection(postgresNames).sorted() {
            let (here, there) = (sqlite[name]!, postgres[name]!)
            if here.columns.map(\.name) != there.columns.map(\.name) {
                found.append("\(name)'s columns are \(here.columns.map(\.name)) on SQLite, \(there.columns.map(\.name)) on PostgreSQL")
            }
            for column in here.columns {
                guard let other = there.column(column.name) else { continue }
                if column.kind.agreeing(with: other.kind) == nil {
                    found.append("\(name).\(column.name) is \(column.declaredType) on SQLite, \(other.declaredType) on PostgreSQL")
                }
                if column.nullable != other.nullable {
                    found.append(
                        "\(name).\(column.name) \(column.nullable ? "may" : "may not") be NULL on SQLite, "
                            + "\(other.nullable ? "may" : "may not") on PostgreSQL")
                }
            }
            if here.foreignKeys != there.foreignKeys {
                found.append("\(name)'s foreign keys are \(here.foreignKeys) on SQLite, \(there.foreignKeys) on PostgreSQL")
            }
            if here.identity != there.identity {
                found.append("\(name)'s counter is \(here.identity ?? "none") on SQLite, \(there.identity ?? "none") on PostgreSQL")
            }
            // The roster's names are its key on SQLite (NOCASE); PostgreSQL makes them unique
            // by an index on their folded case, which a primary key cannot be.
            if here.primaryKey != there.primaryKey && !(name == "roster" && there.primaryKey.isEmpty) {
                found.append("\(name)'s primary key is \(here.primaryKey) on SQLite, \(there.primaryKey) on PostgreSQL")
            }
        }
        return found
    }

    @Test("SQLite describes its tables: columns with their kinds, keys never NULL, foreign keys, AUTOINCREMENT counters")
    func sqliteDescribesItself() throws {
        let catalog = try Self.sqliteCatalog()
        #expect(catalog["sqlite_sequence"] == nil, "SQLite's own tables are not the schema's")
        let users = try #require(catalog["users"])
        #expect(users.identity == "id" && users.primaryKey == ["id"])
        #expect(users.column("id")?.nullable == false && users.column("name")?.kind == .text && users.column("is_admin")?.kind == .integer)
        #expect(catalog["rejected_snaps"]?.identity == nil, "a rejected snap keeps its snap's id: no counter")
        #expect(catalog["roster"]?.column("claimed_by")?.nullable == true)
        #expect(
            catalog["roster"]?.foreignKeys
                == [
                    .init(columns: ["claimed_by"], parent: "users", parentColumns: ["id"]),
                    .init(columns: ["class_id"], parent: "classes", parentColumns: ["id"]),
                ])
        #expect(catalog["views"]?.primaryKey == ["snap_id", "viewer_id"] && catalog["views"]?.parents == ["snaps", "users"])
        #expect(catalog["sessions"]?.column("token_hash")?.kind == .blob && catalog["sessions"]?.column("token_hash")?.nullable == false)
    }

    @Test(
        "both engines describe the same tables, columns, keys and counters at the newest version",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func enginesAgree() throws {
        let postgres = try Self.postgresCatalog()
        #expect(postgres["users"]?.column("is_admin")?.kind == .flag && postgres["users"]?.identity == "id")
        #expect(Self.differences(try Self.sqliteCatalog(), postgres) == [])
    }

    @Test(
        "both engines describe the same tables and columns at every version PostgreSQL has",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func enginesAgreeAtEveryVersion() throws {
        for version in PostgresSchema.versions.map(\.version) {
            var found = Self.differences(try Self.sqliteCatalog(at: version), try Self.postgresCatalog(at: version))
            // Until version 10 SQLite's movies handed a deleted movie's id out again (no
            // AUTOINCREMENT); PostgreSQL's identity never did. Version 10 made them one.
            if version < 10 { found.removeAll { $0 == "movies's counter is none on SQLite, id on PostgreSQL" } }
            #expect(found == [], "version \(version)")
        }
    }

    @Test("the copy's left-out list names only tables and columns the schema has")
    func leftOutNamesExist() throws {
        var catalogs = [try Self.sqliteCatalog()]
        if PostgresCluster.shared != nil { catalogs.append(try Self.postgresCatalog()) }
        for entry in DatabaseCopy.leftOut {
            let parts = entry.split(separator: ".").map(String.init)
            let exists = catalogs.contains { catalog in
                guard let table = catalog[parts[0]] else { return false }
                return parts.count == 1 || table.column(parts[1]) != nil
            }
            // schema_versions is PostgreSQL's alone; without PostgreSQL it cannot be seen here.
            #expect(exists || (catalogs.count == 1 && Self.postgresBookkeeping.contains(entry)), "\(entry) is in no engine's schema")
        }
    }

    @Test(
        "the copy between the engines takes every table but those left out, each after the tables it points to",
        .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
    func copyPlanCoversTheSchema() throws {
        let sqlite = try Self.sqliteCatalog()
        let postgres = try Self.postgresCatalog()
        for (source, target) in [(sqlite, postgres), (postgres, sqlite), (sqlite, sqlite)] {
            let plan = try DatabaseCopy.plan(source: source, target: target)
            #expect(Set(plan.map(\.name)) == Set(source.tables.map(\.name)).subtracting(DatabaseCopy.leftOut))
            for (position, table) in plan.enumerated() {
                let earlier = Set(plan[..<position].map(\.name))
                #expect(source[table.name]!.parents.isSubset(of: earlier), "\(table.name) comes after its parents")
                let columns = source[table.name]!.columns.map(\.name).filter { !DatabaseCopy.leftOut.contains("\(table.name).\($0)") }
                #expect(table.columns.map(\.name) == columns)
            }
            let flag = plan.first { $0.name == "users" }?.columns.first { $0.name == "is_admin" }?.kind
            #expect(flag == (source == target ? .integer : .flag), "a boolean on either side is read and written as one")
        }
    }

    @Test("a column only one side's schema has stops the plan, naming it")
    func differingSchemasStopThePlan() throws {
        let catalog = try Self.sqliteCatalog()
        var extended = catalog
        let users = extended.tables.firstIndex { $0.name == "users" }!
        extended.tables[users].columns.append(.init(name: "nickname", kind: .text, nullable: false, declaredType: "TEXT"))
        let missing = #expect(throws: StoreError.self) { try DatabaseCopy.plan(source: extended, target: catalog) }
        #expect(missing?.message.contains("the target has no column users.nickname") == true)
        let extra = #expect(throws: StoreError.self) { try DatabaseCopy.plan(source: catalog, target: extended) }
        #expect(extra?.message.contains("the source has no column users.nickname") == true)
    }

    @Test("foreign keys that form a cycle are refused: no table could be copied first")
    func cycleRefused() throws {
        let table = { (name: String, parent: String) in
            SchemaCatalog.Table(
                name: name, columns: [], primaryKey: [],
                foreignKeys: [.init(columns: ["p"], parent: parent, parentColumns: ["id"])])
        }
        let catalog = SchemaCatalog(tables: [table("a", "b"), table("b", "a")])
        #expect(throws: StoreError.self) { try catalog.parentsFirst(["a", "b"]) }
        #expect(try catalog.parentsFirst(["a"]) == ["a"], "a parent that is not copied does not hold a table back")
    }
}
