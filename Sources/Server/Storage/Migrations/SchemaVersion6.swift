/// Version 6: views lose their index by viewer. Every open inserted into it as well as into the
/// primary key, and the two orders put one batch's opens on different pages: the primary key
/// (snap, viewer) keeps a class opening the newest snaps on a page or two, while the index by
/// viewer dirtied one 16 KB page per viewer in every group commit, each written to the WAL and
/// later checkpointed (docs/benchmarks.md, "The bytes path against nginx"). What used it reads
/// views once instead: the admin's user list counts them in one grouped pass. (Nothing deletes
/// users; if something ever does, its foreign-key cascade scans views.)
enum SchemaVersion6 {
    static let migration = SchemaMigration(
        version: 6, summary: "views without the index by viewer",
        sql: """
            DROP INDEX views_by_viewer;
            """)
}
