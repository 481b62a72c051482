import Foundation
import Wire
import SQL

/// Everything a class has, copied row by row from one store to another, ids kept: the one
/// way data moves between engines and files (`migrate`, `backup`, `restore`).
///
/// The source is read in one transaction (one snapshot, on SQLite and PostgreSQL alike) while
/// its server may run; the target must be empty but for the three default feeds, and is written
/// in one transaction: every table, parents first, a page of rows at a time (images a few at a
/// time, so memory stays small); then each id counter is raised to the source's (ids are never
/// handed out twice), and every table is counted on both sides. A count that differs commits
/// nothing. Login throttle budgets are not copied: they only matter for minutes.
enum DatabaseCopy {
    enum Kind {
        case integer, real, text, blob, bool
        /// An integer that may be NULL (a roster entry nobody has claimed).
        case optionalInteger
    }

    struct Table {
        let name: String
        let columns: [(String, Kind)]
        /// The SQLite order to page through it by (its primary key).
        let order: String
        /// Rows per page (tables of images use small pages).
        var page = 500
        /// Has an identity column `id` whose sequence must continue after the copied ids.
        var identity = true
    }

    /// Parents before children, so every foreign key finds its row.
    static let tables: [Table] = [
        Table(name: "users", columns: [("id", .integer), ("name", .text), ("password_hash", .text), ("is_admin", .bool), ("created_at", .integer),
                                       ("disabled", .bool), ("must_change_password", .bool), ("last_sign_in_at", .integer),
                                       ("one_time_hash", .text)],
              order: "id"),
        Table(name: "sessions", columns: [("token_hash", .blob), ("user_id", .integer), ("created_at", .integer), ("expires_at", .integer),
                                          ("last_used_at", .integer)], order: "token_hash", identity: false),
        Table(name: "feeds", columns: [("id", .integer), ("name", .text), ("created_at", .integer)], order: "id"),
        Table(name: "snaps", columns: [("id", .integer), ("feed_id", .integer), ("poster_id", .integer), ("posted_at", .integer),
                                       ("expires_at", .integer), ("byte_count", .integer), ("width", .integer), ("height", .integer),
                                       ("format", .integer), ("sha256", .blob), ("image_erased", .bool),
                                       ("awaiting_approval", .bool)], order: "id"),
        Table(name: "rejected_snaps", columns: [("id", .integer), ("feed_id", .integer), ("poster_id", .integer), ("posted_at", .integer),
                                                ("expires_at", .integer), ("byte_count", .integer), ("width", .integer), ("height", .integer),
                                                ("format", .integer), ("reason", .text), ("rejected_at", .integer)],
              order: "id", identity: false),
        Table(name: "snap_images", columns: [("snap_id", .integer), ("bytes", .blob)], order: "snap_id", page: 20, identity: false),
        Table(name: "views", columns: [("snap_id", .integer), ("viewer_id", .integer), ("claimed_at", .integer)],
              order: "snap_id, viewer_id", identity: false),
        Table(name: "pins", columns: [("id", .integer), ("user_id", .integer), ("latitude", .real), ("longitude", .real), ("created_at", .integer)],
              order: "id"),
        Table(name: "albums", columns: [("pin_id", .integer), ("state", .integer), ("error", .text), ("provider", .text), ("searched", .bool),
                                        ("page", .integer), ("pages", .integer), ("per_page", .integer), ("total", .integer),
                                        ("generation", .integer), ("updated_at", .integer)], order: "pin_id", identity: false),
        Table(name: "photos", columns: [("id", .integer), ("pin_id", .integer), ("position", .integer), ("state", .integer),
                                        ("provider_photo_id", .text), ("reference", .text), ("title", .text), ("tags", .text), ("place", .text),
                                        ("latitude", .real), ("longitude", .real), ("width", .integer), ("height", .integer),
                                        ("byte_count", .integer), ("error", .text)], order: "id"),
        Table(name: "photo_images", columns: [("photo_id", .integer), ("sha256", .blob), ("bytes", .blob)], order: "photo_id", page: 20,
              identity: false),
        Table(name: "photo_thumbnails", columns: [("photo_id", .integer), ("sha256", .blob), ("bytes", .blob)], order: "photo_id", page: 100,
              identity: false),
        Table(name: "map_states", columns: [("user_id", .integer), ("center_latitude", .real), ("center_longitude", .real), ("zoom", .real),
                                            ("updated_at", .integer)], order: "user_id", identity: false),
        Table(name: "movies", columns: [("id", .integer), ("user_id", .integer), ("title", .text), ("title_key", .text), ("genre", .text),
                                        ("sales", .integer), ("created_at", .integer), ("updated_at", .integer)], order: "id"),
        Table(name: "audit_log", columns: [("id", .integer), ("at", .integer), ("actor", .text), ("action", .text), ("target", .text),
                                           ("result", .text)], order: "id"),
        Table(name: "reports", columns: [("snap_id", .integer), ("reporter_id", .integer), ("reason", .text), ("reported_at", .integer)],
              order: "snap_id, reporter_id", identity: false),
        Table(name: "suspensions", columns: [("user_id", .integer), ("until", .integer), ("reason", .text), ("suspended_by", .text),
                                             ("suspended_at", .integer)], order: "user_id", identity: false),
        Table(name: "roster", columns: [("name", .text), ("display_name", .text), ("role", .text), ("added_at", .integer),
                                        ("claimed_by", .optionalInteger)],
              order: "name", identity: false),
        Table(name: "device_tokens", columns: [("token_hash", .blob), ("user_id", .integer), ("created_at", .integer),
                                               ("last_used_at", .integer)], order: "token_hash", identity: false),
    ]

    /// The tables whose `id` only ever grows.
    static var identityTables: [String] { tables.filter(\.identity).map(\.name) }

    /// Copies `source` into the empty `target`; returns each table's row count, equal on both
    /// sides. `counter` turns each of the source's id counters into the target's (a restore
    /// jumps past what may have been handed out since). `progress` hears a line per table.
    /// `audit`, when given, is recorded in the target with the copy (a restore, a migration).
    static func copy(from source: SQLStore, to target: SQLStore, counter: (Int64) -> Int64 = { $0 }, audit: AuditRecord? = nil,
                     progress: (String) -> Void) throws -> [(table: String, rows: Int)] {
        let from = source.engine.connection
        let into = target.engine.connection
        return try target.translatingErrors("copying") {
            try from.transaction {
                try into.transaction {
                    try refuseNonEmpty(into)
                    // The target's default feeds make way for the class's own (same names, its ids).
                    try into.execute("DELETE FROM feeds")
                    for table in tables {
                        try copy(table, from: from, to: into)
                        progress("copied \(table.name)")
                    }
                    let epoch = try from.queryFirst("SELECT value FROM access_epoch WHERE id = 1") { $0.int64("value") } ?? 0
                    try into.execute("UPDATE access_epoch SET value = \(epoch) WHERE id = 1")
                    let counters = try source.engine.idCounters(of: identityTables)
                    try target.engine.raiseIdCounters(counters.mapValues(counter))
                    try checkCounts(source: from, target: into)
                    if let audit { try target.recordAudit(audit) }
                }
                return try tables.map { ($0.name, try count($0, in: from)) }
            }
        }
    }

    private static func refuseNonEmpty(_ db: any SQLConnection) throws {
        let (rows, otherFeeds) = try db.queryFirst("""
            SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM snaps) + (SELECT count(*) FROM pins)
                   + (SELECT count(*) FROM movies) + (SELECT count(*) FROM sessions) AS rows,
                   (SELECT count(*) FROM feeds WHERE name NOT IN ('Memes', 'Dog Spots', 'Random')) AS other_feeds
            """) { ($0.int64("rows"), $0.int64("other_feeds")) } ?? (0, 0)
        guard rows == 0 && otherFeeds == 0 else {
            throw ConfigurationError("the target is not empty (\(rows) rows of users, snaps, pins, movies and "
                                     + "sessions, \(otherFeeds) feeds of its own); copy into a new, empty one")
        }
    }

    private static func copy(_ table: Table, from source: any SQLConnection, to target: any SQLConnection) throws {
        let names = SQL(raw: table.columns.map(\.0).joined(separator: ", "))
        var offset = 0
        while true {
            let rows = try source.query("""
                SELECT \(names) FROM \(raw: table.name) ORDER BY \(raw: table.order) LIMIT \(table.page) OFFSET \(offset)
                """) { row in
                table.columns.map { name, kind -> SQLValue in
                    switch kind {
                    case .integer: .integer(row.int64(name))
                    case .real: .real(row.double(name))
                    case .text: .text(row.string(name))
                    case .blob: .blob(row.bytes(name))
                    case .bool: .bool(row.bool(name))
                    case .optionalInteger: row.isNull(name) ? .null : .integer(row.int64(name))
                    }
                }
            }
            for values in rows { try target.execute("INSERT INTO \(raw: table.name) (\(names)) VALUES (\(list: values))") }
            guard rows.count == table.page else { return }
            offset += rows.count
        }
    }

    private static func count(_ table: Table, in connection: any SQLConnection) throws -> Int {
        try connection.queryFirst("SELECT count(*) AS n FROM \(raw: table.name)") { $0.int("n") } ?? 0
    }

    private static func checkCounts(source: any SQLConnection, target: any SQLConnection) throws {
        for table in tables {
            let here = try count(table, in: source)
            let there = try count(table, in: target)
            guard here == there else {
                throw StoreError(.internalError, "\(table.name): \(here) rows in the source but \(there) copied; nothing was committed")
            }
        }
    }
}
