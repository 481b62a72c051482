import Foundation
import SQL
import Wire

/// Everything a class has, copied row by row from one store to another, ids kept: the one
/// way data moves between engines and files (`migrate`, `backup`, `restore`).
///
/// It holds no list of tables or columns: it reads them from the source database itself
/// (`SchemaCatalog`), every table and every column, but for the few it leaves out on purpose
/// (`leftOut`), and checks that the target's schema has the same. A column added to the schema
/// is therefore in every backup from its first day, and one that an engine's schema lacks stops
/// the copy before anything is written. Each column is read and written as what it holds (its
/// declared type, agreed by both sides: PostgreSQL's booleans are SQLite's integers), NULL where
/// the column allows it.
///
/// The source is read in one transaction (one snapshot, on SQLite and PostgreSQL alike) while
/// its server may run; the target must be empty but for what its migrations seeded (the three
/// default feeds, the first class), which makes way, and is written in one transaction: every
/// table, parents before children (from the foreign keys), a page of rows at a time (pages sized
/// by the table's widest row, so images come a few at a time and memory stays small); then each
/// id counter the source's schema has is raised to the source's (ids are never handed out
/// twice), and every table is counted on both sides. A count that differs commits nothing.
enum DatabaseCopy {
    /// What the copy leaves out on purpose: tables, and `table.column`s, that are not the class's
    /// data. Everything else is copied; `SchemaCatalogTests` holds this list to both engines'
    /// schemas (each name exists in one) and the round trip shows that nothing else is lost.
    static let leftOut: Set<String> = [
        // Login and class-code throttle budgets count the failures of the last minutes, against
        // the server that saw them; a restored class starts with none.
        "throttle_budgets",
        // PostgreSQL's record of its own schema steps: the target's migrations wrote its own.
        "schema_versions",
        // One row the target's schema made already: its value is copied, not its row (below).
        "access_epoch",
        // An album download's lease is held by one of the source's running instances; the
        // target's servers take the albums left downloading afresh, at once.
        "albums.lease_owner", "albums.lease_until",
    ]

    /// One table as the copy moves it.
    struct Table {
        let name: String
        /// Its columns but those left out, each with the kind both sides agree on.
        let columns: [(name: String, kind: SchemaCatalog.Kind)]
        /// The columns to page through it by: its primary key, or all of them when it has none.
        let order: [String]
        /// Its blob columns, whose sizes set how many rows a page holds.
        var blobs: [String] { columns.filter { $0.kind == .blob }.map(\.name) }
    }

    /// How much a page of rows may hold, in blob bytes (at most `pageRows` rows).
    static let pageBytes = 8 << 20
    static let pageRows = 500

    /// The tables to copy, parents first, from the two databases' own descriptions: every table
    /// and column of the source but those left out, each of which the target must have with a
    /// kind both agree on, and no other (the same schema version means the same tables on both
    /// engines; anything else is a bug in one engine's schema, and nothing is copied).
    static func plan(source: SchemaCatalog, target: SchemaCatalog) throws -> [Table] {
        let names = source.tables.map(\.name).filter { !leftOut.contains($0) }
        var differences: [String] = []
        let targetNames = Set(target.tables.map(\.name).filter { !leftOut.contains($0) })
        differences += targetNames.subtracting(names).sorted().map { "the source has no table \($0)" }
        var tables: [String: Table] = [:]
        for name in names {
            let here = source[name]!
            guard let there = target[name] else {
                differences.append("the target has no table \(name)")
                continue
            }
            func copied(_ table: SchemaCatalog.Table) -> [SchemaCatalog.Column] {
                table.columns.filter { !leftOut.contains("\(name).\($0.name)") }
            }
            var columns: [(name: String, kind: SchemaCatalog.Kind)] = []
            for column in copied(here) {
                guard let other = there.column(column.name) else {
                    differences.append("the target has no column \(name).\(column.name)")
                    continue
                }
                guard let kind = column.kind.agreeing(with: other.kind) else {
                    differences.append(
                        "\(name).\(column.name) is \(column.declaredType) in the source "
                            + "and \(other.declaredType) in the target")
                    continue
                }
                guard kind.isKnown else {
                    differences.append("\(name).\(column.name) is \(column.declaredType), which the copy cannot read")
                    continue
                }
                columns.append((column.name, kind))
            }
            differences += copied(there).filter { here.column($0.name) == nil }.map { "the source has no column \(name).\($0.name)" }
            if here.identity != there.identity {
                differences.append(
                    "\(name)'s counter is \(here.identity ?? "none") in the source "
                        + "and \(there.identity ?? "none") in the target")
            }
            let order = here.primaryKey.isEmpty ? columns.map(\.name) : here.primaryKey
            tables[name] = Table(name: name, columns: columns, order: order)
        }
        guard differences.isEmpty else {
            throw StoreError(
                .internalError,
                "the source's schema and the target's differ, so nothing was copied: "
                    + differences.joined(separator: "; "))
        }
        return try source.parentsFirst(names).map { tables[$0]! }
    }

    /// Copies `source` into the empty `target`; returns each table's row count, equal on both
    /// sides. `counter` turns each of the source's id counters into the target's (a restore
    /// jumps past what may have been handed out since). `progress` hears a line per table.
    /// `audit`, when given, is recorded in the target with the copy (a restore, a migration).
    static func copy(
        from source: SQLStore, to target: SQLStore, counter: (Int64) -> Int64 = { $0 }, audit: AuditRecord? = nil,
        progress: (String) -> Void
    ) throws -> [(table: String, rows: Int)] {
        let from = source.engine.connection
        let into = target.engine.connection
        return try target.translatingErrors("copying") {
            try from.transaction {
                let catalog = try source.engine.catalog()
                let tables = try into.transaction {
                    try refuseNonEmpty(into)
                    let tables = try plan(source: catalog, target: target.engine.catalog())
                    // What the target's migrations seeded (the default feeds, the first class) makes
                    // way for the source's own, the same names with its ids: children first.
                    for table in tables.reversed() { try into.execute("DELETE FROM \(raw: table.name)") }
                    for table in tables {
                        try copy(table, from: from, to: into)
                        progress("copied \(table.name)")
                    }
                    let epoch = try from.queryFirst("SELECT value FROM access_epoch WHERE id = 1") { $0.int64("value") } ?? 0
                    try into.execute("UPDATE access_epoch SET value = \(epoch) WHERE id = 1")
                    let identities = tables.compactMap { table in
                        catalog[table.name]?.identity.map { SchemaCatalog.Identity(table: table.name, column: $0) }
                    }
                    let counters = try source.engine.idCounters(of: identities)
                    try target.engine.raiseIdCounters(counters.mapValues(counter))
                    try checkCounts(tables, source: from, target: into)
                    if let audit { try target.recordAudit(audit, classID: nil) }
                    return tables
                }
                return try tables.map { ($0.name, try count($0.name, in: from)) }
            }
        }
    }

    private static func refuseNonEmpty(_ db: any SQLConnection) throws {
        let (rows, otherFeeds) =
            try db.queryFirst(
                """
                SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM snaps) + (SELECT count(*) FROM pins)
                       + (SELECT count(*) FROM movies) + (SELECT count(*) FROM sessions) AS rows,
                       (SELECT count(*) FROM feeds WHERE name NOT IN ('Memes', 'Dog Spots', 'Random')) AS other_feeds
                """
            ) { ($0.int64("rows"), $0.int64("other_feeds")) } ?? (0, 0)
        guard rows == 0 && otherFeeds == 0 else {
            throw ConfigurationError(
                "the target is not empty (\(rows) rows of users, snaps, pins, movies and "
                    + "sessions, \(otherFeeds) feeds of its own); copy into a new, empty one")
        }
    }

    private static func copy(_ table: Table, from source: any SQLConnection, to target: any SQLConnection) throws {
        let names = SQL(raw: table.columns.map(\.name).joined(separator: ", "))
        let order = SQL(raw: table.order.joined(separator: ", "))
        let page = try rowsPerPage(table, in: source)
        var offset = 0
        while true {
            let rows = try source.query(
                """
                SELECT \(names) FROM \(raw: table.name) ORDER BY \(order) LIMIT \(page) OFFSET \(offset)
                """
            ) { row in table.columns.map { $0.kind.value($0.name, in: row) } }
            for values in rows { try target.execute("INSERT INTO \(raw: table.name) (\(names)) VALUES (\(list: values))") }
            guard rows.count == page else { return }
            offset += rows.count
        }
    }

    /// As many rows as fit in `pageBytes` at the table's widest row of blobs, from 1 to `pageRows`.
    private static func rowsPerPage(_ table: Table, in source: any SQLConnection) throws -> Int {
        guard !table.blobs.isEmpty else { return pageRows }
        let width = SQL(raw: table.blobs.map { "coalesce(length(\($0)), 0)" }.joined(separator: " + "))
        let widest =
            try source.queryFirst("SELECT coalesce(max(\(width)), 0) AS widest FROM \(raw: table.name)") {
                $0.int64("widest")
            } ?? 0
        return Int(min(Int64(pageRows), max(1, Int64(pageBytes) / max(widest, 1))))
    }

    private static func count(_ table: String, in connection: any SQLConnection) throws -> Int {
        try connection.queryFirst("SELECT count(*) AS n FROM \(raw: table)") { $0.int("n") } ?? 0
    }

    private static func checkCounts(_ tables: [Table], source: any SQLConnection, target: any SQLConnection) throws {
        for table in tables {
            let here = try count(table.name, in: source)
            let there = try count(table.name, in: target)
            guard here == there else {
                throw StoreError(.internalError, "\(table.name): \(here) rows in the source but \(there) copied; nothing was committed")
            }
        }
    }
}
