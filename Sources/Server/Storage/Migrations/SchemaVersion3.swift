/// Schema version 3: favorite movies.
enum SchemaVersion3 {
    static let migration = SchemaMigration(version: 3, summary: "favorite movies", sql: """
        -- (the movies table is added by the favorite-movies work)
        SELECT 1;
        """)
}
