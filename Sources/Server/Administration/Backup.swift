import Foundation
import Posix
import SQL
import SQLite
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// `snapshare-server backup --to FILE` and `restore --from FILE`: one backup format for both
/// engines, a SQLite database file in this version's schema, mode 0600.
///
/// A backup reads its source in one snapshot while the server runs and students post (what
/// committed before it started is in it; what commits during it may be or not, whole), and
/// appears under its name only once it is complete and checked. A restore checks the file's
/// integrity, refuses a target that holds anything, copies, and moves every id counter past
/// what the lost server may have handed out after the backup (`jump`), so no id ever names two
/// different snaps.
enum Backup {
    /// A backup written: where, how large, and what is in it.
    struct Written: Sendable {
        var path: String
        var bytes: Int
        var rows: [(table: String, rows: Int)]
    }

    /// The class's existing data: the configuration's PostgreSQL database or SQLite file, read-only
    /// unless asked (a running server goes on writing meanwhile).
    static func source(for configuration: ServerConfiguration, readOnly: Bool = true) throws -> SQLStore {
        if let database = configuration.database { return try SQLStore.postgres(conninfo: database, readOnly: readOnly) }
        guard FileManager.default.fileExists(atPath: configuration.databasePath) else {
            throw ConfigurationError("no Snapshare database in \(configuration.dataDirectory)")
        }
        return try SQLStore.sqlite(path: configuration.databasePath, readOnly: readOnly)
    }

    /// Copies `source` into a new backup file at `path` (never over an existing file), in a folder
    /// that exists. Until it is complete and checked it has a hidden name beside `path`; a backup
    /// that fails leaves nothing behind.
    static func write(from source: SQLStore, to path: String, progress: (String) -> Void = { _ in }) throws -> Written {
        let staged = try StagedOutput.file(path, mode: 0o600)
        let rows = try fill(staged.temporaryPath, from: source, checkedAs: path, progress: progress)
        try staged.commit()
        let bytes = Int((try? FileSystem.status(path))??.size ?? 0)
        return Written(path: path, bytes: bytes, rows: rows)
    }

    /// The copy into the staged file, closed when this returns (so it is named whole).
    private static func fill(
        _ file: String, from source: SQLStore, checkedAs path: String,
        progress: (String) -> Void
    ) throws -> [(table: String, rows: Int)] {
        let target = try SQLStore.sqlite(path: file)
        let rows = try DatabaseCopy.copy(from: source, to: target, progress: progress)
        let database = target.sqliteDatabase!
        try checkIntegrity(database, path: path)
        // One self-contained file: the WAL folded back in and the journal mode persisted as DELETE.
        try database.exec("PRAGMA journal_mode = DELETE")
        return rows
    }

    /// Copies the backup at `path` into the empty store `target` opens, which is opened only once
    /// the backup is found whole, and records `audit` there with the copy; returns each table's row count.
    static func restore(
        from path: String, to target: () throws -> SQLStore, audit: AuditRecord, progress: (String) -> Void = { _ in }
    )
        throws -> [(table: String, rows: Int)]
    {
        let (source, scratch) = try openBackup(path)
        defer { scratch?.discard() }
        return try DatabaseCopy.copy(from: source, to: try target(), counter: jump, audit: audit, progress: progress)
    }

    /// Copies the backup at `path` into the data folder `folder`: one that holds an empty Snapshare
    /// database, or a new or empty folder, which is made owner-only and gets its database only
    /// once the restore is complete. A folder holding anything else is refused, unchanged.
    static func restore(from path: String, intoDataFolder folder: String, audit: AuditRecord, progress: (String) -> Void = { _ in })
        throws -> [(table: String, rows: Int)]
    {
        let database = ServerConfiguration.databasePath(in: folder)
        if FileManager.default.fileExists(atPath: database) {
            // The copy refuses a database holding anything, and writes in one transaction; the
            // folder is made owner-only (saying so) once it holds the class.
            let rows = try restore(from: path, to: { try SQLStore.sqlite(path: database) }, audit: audit, progress: progress)
            try DataDirectory.prepare(folder, logger: Logger(level: .warning))
            return rows
        }
        var staged: StagedOutput?
        let rows = try restore(
            from: path,
            to: {
                let made = try DataDirectory.stageNew(folder)
                staged = made
                return try SQLStore.sqlite(path: ServerConfiguration.databasePath(in: made.temporaryPath))
            }, audit: audit, progress: progress)
        try staged?.commit()
        return rows
    }

    /// Where a restored counter continues: past the backup's by as much again, and by at least a
    /// million. A class that lost its server after the backup handed out fewer ids than that
    /// since (a term of a busy class posts tens of thousands), so none is handed out twice.
    static func jump(_ counter: Int64) -> Int64 { counter + max(1_000_000, counter) }

    /// The backup as a store to read from. A file of an older schema is brought up to date in a
    /// scratch copy (the backup itself is never changed), owner-only from its creation like the
    /// backup, which is returned to discard once read.
    private static func openBackup(_ path: String) throws -> (SQLStore, StagedOutput?) {
        let found: FileStatus?
        do { found = try FileSystem.status(path) } catch { throw ConfigurationError("no backup at \(path): \(error.reason)") }
        guard let found else { throw ConfigurationError("no backup at \(path): \(SystemError("stat", errno: ENOENT).reason)") }
        guard found.kind == .file else { throw ConfigurationError("\(path) is a folder or a device, not a backup file") }
        do { try FileSystem.checkReadable(path) } catch { throw ConfigurationError("cannot read the backup \(path): \(error.reason)") }
        let version: Int64
        do {
            let database = try SQLiteDatabase(path: path, readOnly: true)
            try checkIntegrity(database, path: path)
            version = try database.userVersion()
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("\(path) is not a Snapshare backup: \(error)")
        }
        guard version > 0 else { throw ConfigurationError("\(path) is not a Snapshare backup (it has no schema version)") }
        guard version < Schema.currentVersion else { return (try SQLStore.sqlite(path: path, readOnly: true), nil) }
        let scratchPath = FileManager.default.temporaryDirectory.appendingPathComponent("snapshare-restore-\(UUID().uuidString).db").path
        let scratch = try StagedOutput.file(scratchPath)
        try scratch.write(contentsOf: path)
        return (try SQLStore.sqlite(path: scratch.temporaryPath), scratch)
    }

    /// SQLite's own check of every page and index; anything but "ok" stops the backup or restore.
    private static func checkIntegrity(_ database: SQLiteDatabase, path: String) throws {
        let verdict = try database.queryFirst("PRAGMA integrity_check") { $0.string("integrity_check") } ?? "no answer"
        guard verdict == "ok" else { throw StoreError(.corrupt, "\(path) fails SQLite's integrity check: \(verdict)") }
    }
}

/// `snapshare-server compact`: the space of deleted snaps and photos back to the file system.
enum Compaction {
    /// Reclaims the space of `store`; returns the database's size before and after, in bytes.
    static func run(_ store: SQLStore) throws -> (before: Int64, after: Int64) {
        let size: SQL = "SELECT \(store.engine.databaseSize) AS size"
        let before = try store.engine.connection.queryFirst(size) { $0.int64("size") } ?? 0
        try store.translatingErrors("compacting") { try store.engine.reclaimSpace() }
        let after = try store.engine.connection.queryFirst(size) { $0.int64("size") } ?? 0
        return (before, after)
    }
}
