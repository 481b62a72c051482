/// One step of the schema: what turns version `version - 1` into `version`.
struct SchemaMigration: Sendable {
    /// The `user_version` the database has after this step.
    var version: Int64
    /// What the step does, for error messages.
    var summary: String
    /// SQL run inside the step's transaction (several statements allowed).
    var sql: String
}
