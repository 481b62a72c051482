/// Schema version 2: pins, albums, photos and the saved map view.
enum SchemaVersion2 {
    static let migration = SchemaMigration(version: 2, summary: "pins and albums", sql: """
        -- (tables for pins and albums are added by the pins-and-albums work)
        SELECT 1;
        """)
}
