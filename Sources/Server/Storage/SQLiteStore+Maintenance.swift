import SQLite

/// Purging expired images, erasing deleted bytes (compaction), and the counters for `admin stats`.
extension SQLiteStore {
    public func purgeExpired(now: Int64) throws -> Int {
        try translatingErrors("purging expired snaps") {
            try database.transaction {
                let erased = try database.run("""
                    DELETE FROM snap_images
                    WHERE snap_id IN (SELECT id FROM snaps WHERE image_erased = 0 AND expires_at <= ?1)
                    """, [.integer(now)])
                try database.run("UPDATE snaps SET image_erased = 1 WHERE image_erased = 0 AND expires_at <= ?1",
                                 [.integer(now)])
                if erased > 0 { eraseDeletedBytes() }
                return erased
            }
        }
    }

    /// Called by every method that deletes snap images: `secure_delete` has zeroed their pages,
    /// and the checkpoint right after the commit (at once outside a transaction) removes the
    /// older copies the WAL still holds. A failure there is not the delete's failure; the next
    /// one repeats the work.
    func eraseDeletedBytes() {
        database.afterCommit(key: "checkpoint") { [weak self] in _ = try? self?.checkpoint() }
    }

    /// Copies the WAL into the database file and truncates the WAL to zero bytes. With
    /// `secure_delete` the deleted image pages were already zeroed; this removes the older copies
    /// the WAL still held.
    ///
    /// SQLite refuses to checkpoint inside a transaction, and a group-commit batch is always one.
    /// So inside a transaction the checkpoint is scheduled for right after the outermost COMMIT
    /// (still before the batch's completions run); a failure there cannot reach this caller, and
    /// the next compaction repeats the work. Outside a transaction it runs at once and reports a
    /// checkpoint that readers kept from finishing as `unavailable`.
    public func compact() throws {
        guard !database.isReadOnly else {
            throw StoreError(.internalError, "compact needs the writer connection")
        }
        if database.isInTransaction { return eraseDeletedBytes() }
        try translatingErrors("compacting") {
            guard try checkpoint() else {
                throw StoreError(.unavailable, "the checkpoint could not finish because another connection "
                                 + "was reading; deleted data may remain in the WAL until it is retried")
            }
        }
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`; false when another connection kept it from finishing.
    private func checkpoint() throws -> Bool {
        // Columns: busy (1 if blocked), frames in the WAL, frames copied.
        let busy = try database.withBackgroundCheckpointsPaused {
            try database.queryFirst("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(at: 0) } ?? 0
        }
        return busy == 0
    }

    public func largestStoredImage() throws -> Int {
        try translatingErrors("measuring stored images") {
            // length() of a blob reads the record header, not the image pages.
            Int(try database.scalar("""
                SELECT max(coalesce((SELECT max(length(bytes)) FROM snap_images), 0),
                           coalesce((SELECT max(length(bytes)) FROM photo_images), 0),
                           coalesce((SELECT max(length(bytes)) FROM photo_thumbnails), 0))
                """))
        }
    }

    public func statistics(now: Int64) throws -> [Statistic] {
        try translatingErrors("collecting statistics") {
            try database.transaction {
                let live = "expires_at > ?1 AND image_erased = 0"
                let counters: [(String, String, [SQLiteValue])] = [
                    ("users", "SELECT count(*) FROM users", []),
                    ("admins", "SELECT count(*) FROM users WHERE is_admin = 1", []),
                    ("feeds", "SELECT count(*) FROM feeds", []),
                    ("snaps_live", "SELECT count(*) FROM snaps WHERE \(live)", [.integer(now)]),
                    ("snaps_expired", "SELECT count(*) FROM snaps WHERE NOT (\(live))", [.integer(now)]),
                    ("views", "SELECT count(*) FROM views", []),
                    // length() of a blob reads the record header, not the image pages.
                    ("image_bytes_stored", "SELECT coalesce(sum(length(bytes)), 0) FROM snap_images", []),
                    ("database_bytes", "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()", []),
                    ("sessions", "SELECT count(*) FROM sessions WHERE expires_at > ?1", [.integer(now)]),
                ]
                return try counters.map { name, sql, values in
                    Statistic(name: name, value: try database.scalar(sql, values))
                }
            }
        }
    }
}
