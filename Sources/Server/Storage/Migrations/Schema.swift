import SQLite

/// The schema's history for both engines, and the code that brings a SQLite file up to date.
///
/// `steps` is the one declaration of the schema's versions: each says what SQLite runs
/// (`SchemaVersionN`, in this folder) and what PostgreSQL runs (`PostgresSchema`) to reach it,
/// so version N means the same tables, columns and rows in both, and the newest step is the
/// version this code reads and writes on either (`currentVersion`). A new version is one more
/// step here: the compiler asks for both engines' part.
///
/// SQLite keeps its version in `PRAGMA user_version`. Each migration runs in its own `BEGIN IMMEDIATE`
/// transaction together with the version bump, so a crash leaves the file at a whole version.
/// Migrations are append-only: a released step is never edited, a change is a new step.
enum Schema {
    /// Every step in order, each engine's part side by side.
    static let steps: [SchemaStep] = [
        SchemaStep(SchemaVersion1.migration, postgres: .predates),
        SchemaStep(SchemaVersion2.migration, postgres: .predates),
        SchemaStep(SchemaVersion3.migration, postgres: .predates),
        SchemaStep(SchemaVersion4.migration, postgres: .sql(PostgresSchema.version4, summary: "initial schema, as SQLite's version 4")),
        SchemaStep(SchemaVersion5.migration, postgres: .sql(PostgresSchema.version5)),
        // SQLite's step 6 drops an index PostgreSQL never had; PostgreSQL's stores images uncompressed.
        SchemaStep(SchemaVersion6.migration, postgres: .sql(PostgresSchema.version6, summary: "images stored uncompressed")),
        SchemaStep(SchemaVersion7.migration, postgres: .sql(PostgresSchema.version7)),
        SchemaStep(SchemaVersion8.migration, postgres: .nothing(summary: "the purge's index says NOT image_erased, as it always did here")),
        SchemaStep(SchemaVersion9.migration, postgres: .sql(PostgresSchema.version9)),
        // SQLite's movies gained AUTOINCREMENT; an identity column never went back.
        SchemaStep(SchemaVersion10.migration, postgres: .nothing()),
        SchemaStep(SchemaVersion11.migration, postgres: .sql(PostgresSchema.version11)),
        SchemaStep(SchemaVersion12.migration, postgres: .sql(PostgresSchema.version12)),
        SchemaStep(SchemaVersion13.migration, postgres: .sql(PostgresSchema.version13)),
        SchemaStep(SchemaVersion14.migration, postgres: .sql(PostgresSchema.version14)),
        SchemaStep(SchemaVersion15.migration, postgres: .sql(PostgresSchema.version15)),
        SchemaStep(SchemaVersion16.migration, postgres: .sql(PostgresSchema.version16)),
        SchemaStep(SchemaVersion17.migration, postgres: .sql(PostgresSchema.version17)),
    ]

    /// The version this code reads and writes, on both engines.
    static var currentVersion: Int64 { steps.last?.version ?? 0 }

    /// SQLite's steps in order.
    static var migrations: [SchemaMigration] { steps.map(\.sqlite) }

    /// Brings a writer connection's file to `currentVersion` (tests stop at an older `target`,
    /// to make a file as an older server left it); refuses a newer file.
    static func migrate(_ database: SQLiteDatabase, upTo target: Int64 = currentVersion) throws {
        try migrate(database, through: migrations, upTo: target)
    }

    /// `migrate` through the steps given (tests give steps of their own).
    static func migrate(_ database: SQLiteDatabase, through migrations: [SchemaMigration], upTo target: Int64) throws {
        precondition(!database.isReadOnly, "read-only connections never migrate")
        for migration in migrations where migration.version <= target {
            // Outside a transaction: SQLite ignores this pragma inside one.
            if migration.rebuildsTables { try database.exec("PRAGMA foreign_keys = OFF") }
            defer { if migration.rebuildsTables { try? database.exec("PRAGMA foreign_keys = ON") } }
            try database.transaction {
                // Read inside the write transaction: another process may have migrated meanwhile.
                let version = try database.userVersion()
                try refuseNewer(version, path: database.path)
                guard version < migration.version else { return }
                guard version == migration.version - 1 else {
                    throw StoreError(
                        .corrupt,
                        "\(database.path) has schema version \(version), "
                            + "which no migration step starts from")
                }
                do {
                    try database.exec(migration.sql)
                } catch {
                    throw StoreError(
                        .internalError,
                        "migration to schema version \(migration.version) "
                            + "(\(migration.summary)) failed: \(error)")
                }
                if migration.rebuildsTables {
                    let broken = try database.query("PRAGMA foreign_key_check") { $0.string("table") }
                    guard broken.isEmpty else {
                        throw StoreError(
                            .internalError,
                            "migration to schema version \(migration.version) (\(migration.summary)) "
                                + "left rows of \(Set(broken).sorted().joined(separator: ", ")) pointing nowhere")
                    }
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
            throw StoreError(
                .unavailable,
                "\(database.path) has schema version \(version), expected "
                    + "\(currentVersion); open it read-write once to migrate it")
        }
    }

    private static func refuseNewer(_ version: Int64, path: String) throws {
        guard version <= currentVersion else {
            throw StoreError(
                .unavailable,
                "\(path) has schema version \(version), newer than this "
                    + "server understands (\(currentVersion)); run a newer server or restore a backup")
        }
    }
}
