/// One step of SQLite's schema: what turns version `version - 1` into `version`.
struct SchemaMigration: Sendable {
    /// The `user_version` the database has after this step.
    var version: Int64
    /// What the step does, for error messages.
    var summary: String
    /// SQL run inside the step's transaction (several statements allowed).
    var sql: String
    /// Whether the step rebuilds a table other tables refer to (SQLite changes a constraint or a
    /// key by making the table anew, copying it and dropping the old one): foreign keys are off
    /// while it runs, as SQLite's ALTER TABLE procedure asks, so dropping the old table takes no
    /// row of another with it, and every reference is checked before the step commits.
    var rebuildsTables = false
}

/// One version of the schema, for both engines (`Schema.steps`): SQLite's migration and what
/// PostgreSQL does to reach the same version.
struct SchemaStep: Sendable {
    /// A step as PostgreSQL takes it.
    enum PostgresPart: Sendable {
        /// A version before PostgreSQL's first schema, which was SQLite's at version 4, whole.
        case predates
        /// PostgreSQL's own SQL for the step, recorded in `schema_versions` with `summary` when
        /// it says something else than SQLite's.
        case sql(String, summary: String? = nil)
        /// Nothing to do here: what the step changes on SQLite was already so on PostgreSQL.
        case nothing(summary: String? = nil)
    }

    var sqlite: SchemaMigration
    var postgres: PostgresPart

    init(_ sqlite: SchemaMigration, postgres: PostgresPart) {
        self.sqlite = sqlite
        self.postgres = postgres
    }

    var version: Int64 { sqlite.version }
}
