import Foundation
import PostgreSQL
import SQL
import Wire

/// `snapshare-server migrate --from DATA_DIR --to postgresql://…`: a class that started on
/// SQLite moves to PostgreSQL with everything — users, sessions, feeds, snaps with their images
/// and views, pins, albums, photos, map views, movies, devices — ids kept, so tokens, links and
/// saved vacations stay valid (`DatabaseCopy`).
enum DatabaseMigration {
    /// Copies the data folder's database into the PostgreSQL database `conninfo`, recording
    /// `audit` there with the copy; returns each table's row count, equal on both sides.
    /// `progress` hears one line per table.
    static func run(
        from dataDirectory: String, to conninfo: String, audit: AuditRecord,
        progress: (String) -> Void
    ) throws -> [(table: String, rows: Int)] {
        let path = ServerConfiguration.databasePath(in: dataDirectory)
        guard FileManager.default.fileExists(atPath: path) else { throw ConfigurationError("no Snapshare database in \(dataDirectory)") }
        // Opening brings an older file up to the current schema first, as a server start would.
        let source = try SQLStore.sqlite(path: path)
        let target = try SQLStore.postgres(conninfo: conninfo)
        return try DatabaseCopy.copy(from: source, to: target, audit: audit, progress: progress)
    }
}
