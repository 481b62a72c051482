import Foundation
import PostgreSQL
import SQL

/// `snapshare-server migrate --from DATA_DIR --to postgresql://…`: a class that started on
/// SQLite moves to PostgreSQL with everything — users, sessions, feeds, snaps with their images
/// and views, pins, albums, photos, map views, movies — ids kept, so tokens, links and saved
/// vacations stay valid.
///
/// Refuses a target that holds anything but the three default feeds. Copies in one PostgreSQL
/// transaction, a page of rows at a time (images a few at a time, so memory stays small), then
/// counts every table on both sides and fails, with nothing committed, if one differs.
enum DatabaseMigration {
    enum Kind { case integer, real, text, blob, bool }

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
        Table(name: "users", columns: [("id", .integer), ("name", .text), ("password_hash", .text), ("is_admin", .bool), ("created_at", .integer)],
              order: "id"),
        Table(name: "sessions", columns: [("token_hash", .blob), ("user_id", .integer), ("created_at", .integer), ("expires_at", .integer),
                                          ("last_used_at", .integer)], order: "token_hash", identity: false),
        Table(name: "feeds", columns: [("id", .integer), ("name", .text), ("created_at", .integer)], order: "id"),
        Table(name: "snaps", columns: [("id", .integer), ("feed_id", .integer), ("poster_id", .integer), ("posted_at", .integer),
                                       ("expires_at", .integer), ("byte_count", .integer), ("width", .integer), ("height", .integer),
                                       ("format", .integer), ("sha256", .blob), ("image_erased", .bool)], order: "id"),
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
    ]

    /// Copies the data folder's database into the PostgreSQL database `conninfo`; returns each
    /// table's row count, equal on both sides. `progress` hears one line per table.
    static func run(from dataDirectory: String, to conninfo: String, progress: (String) -> Void) throws -> [(table: String, rows: Int)] {
        let path = ServerConfiguration.databasePath(in: dataDirectory)
        guard FileManager.default.fileExists(atPath: path) else { throw ConfigurationError("no Snapshare database in \(dataDirectory)") }
        // Opening brings an older file up to the current schema first, as a server start would.
        let source: any SQLConnection = try SQLStore.sqlite(path: path).sqliteDatabase!
        let target = try SQLStore.postgres(conninfo: conninfo)
        let db = target.postgresConnection!
        try refuseNonEmpty(db)
        try target.translatingErrors("migrating") {
            try db.transaction {
                // The target's default feeds make way for the class's own (same names, its ids).
                try db.execute("DELETE FROM feeds")
                for table in tables {
                    try copy(table, from: source, to: db)
                    progress("copied \(table.name)")
                }
                let epoch = try source.queryFirst("SELECT value FROM access_epoch WHERE id = 1") { $0.int64("value") } ?? 0
                try db.execute("UPDATE access_epoch SET value = \(epoch) WHERE id = 1")
                try target.continueIdentities(of: tables.filter(\.identity).map(\.name))
                try checkCounts(source: source, target: db)
            }
        }
        return try tables.map { ($0.name, try count($0, in: source)) }
    }

    private static func refuseNonEmpty(_ db: any SQLConnection) throws {
        let (rows, otherFeeds) = try db.queryFirst("""
            SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM snaps) + (SELECT count(*) FROM pins)
                   + (SELECT count(*) FROM movies) + (SELECT count(*) FROM sessions) AS rows,
                   (SELECT count(*) FROM feeds WHERE name NOT IN ('Memes', 'Dog Spots', 'Random')) AS other_feeds
            """) { ($0.int64("rows"), $0.int64("other_feeds")) } ?? (0, 0)
        guard rows == 0 && otherFeeds == 0 else {
            throw ConfigurationError("the PostgreSQL database is not empty (\(rows) rows of users, snaps, pins, movies and "
                                     + "sessions, \(otherFeeds) feeds of its own); migrate into a new, empty database")
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
                throw StoreError(.internalError, "\(table.name): \(here) rows in SQLite but \(there) copied; nothing was committed")
            }
        }
    }
}
