import SQLite

/// The SQLite schema's history and the code that brings a file up to date.
///
/// The version lives in `PRAGMA user_version`. Each migration runs in its own `BEGIN IMMEDIATE`
/// transaction together with the version bump, so a crash leaves the file at a whole version.
/// Migrations are append-only: a released step is never edited, a change is a new step.
enum Schema {
    /// Every step in order; the version of the last one is what this code expects.
    static let migrations: [SchemaMigration] = [SchemaVersion1.migration, SchemaVersion2.migration, SchemaVersion3.migration,
                                                 SchemaVersion4.migration, SchemaVersion5.migration, SchemaVersion6.migration,
                                                 SchemaVersion7.migration, SchemaVersion8.migration,
                                                 SchemaVersion9.migration, SchemaVersion10.migration,
                                                 SchemaVersion11.migration, SchemaVersion12.migration, SchemaVersion13.migration, SchemaVersion14.migration,
                                                 SchemaVersion15.migration]

    /// The version this code reads and writes.
    static var currentVersion: Int64 { migrations.last?.version ?? 0 }

    /// Brings a writer connection's file to `currentVersion`; refuses a newer file.
    static func migrate(_ database: SQLiteDatabase) throws {
        precondition(!database.isReadOnly, "read-only connections never migrate")
        for migration in migrations {
            try database.transaction {
                // Read inside the write transaction: another process may have migrated meanwhile.
                let version = try database.userVersion()
                try refuseNewer(version, path: database.path)
                guard version < migration.version else { return }
                guard version == migration.version - 1 else {
                    throw StoreError(.corrupt, "\(database.path) has schema version \(version), "
                                     + "which no migration step starts from")
                }
                do {
                    try database.exec(migration.sql)
                } catch {
                    throw StoreError(.internalError, "migration to schema version \(migration.version) "
                                     + "(\(migration.summary)) failed: \(error)")
                }
                try database.setUserVersion(migration.version)
            }
        }
    }

    /// Checks that a (read-only) connection's file is exactly at `currentVersion`.
    static func verify(_ database: SQLiteDatabase) throws {
        let version = try database.userVersion()
        try refuseNewer(version, path: database.path)
        guard version == currentVersion else {
            throw StoreError(.unavailable, "\(database.path) has schema version \(version), expected "
                             + "\(currentVersion); open it read-write once to migrate it")
        }
    }

    private static func refuseNewer(_ version: Int64, path: String) throws {
        guard version <= currentVersion else {
            throw StoreError(.unavailable, "\(path) has schema version \(version), newer than this "
                             + "server understands (\(currentVersion)); run a newer server or restore a backup")
        }
    }
}
