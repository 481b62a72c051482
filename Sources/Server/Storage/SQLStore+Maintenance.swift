import SQL

/// Purging expired images, erasing deleted bytes, and the counters for `admin stats`.
extension SQLStore: MaintenanceStore {
    package func purgeExpired(now: Int64) throws -> Int {
        try translatingErrors("purging expired snaps") {
            try sql.transaction {
                guard try engine.takePurgeTurn() else { return 0 }
                let erased = try sql.execute("DELETE FROM snap_images WHERE snap_id IN (\(expiredUnerasedSnaps(now: now)))")
                try sql.execute("UPDATE snaps SET image_erased = \(true) WHERE id IN (\(expiredUnerasedSnaps(now: now)))")
                // A rejection's notice lives as long as its snap would have.
                try sql.execute("DELETE FROM rejected_snaps WHERE expires_at <= \(now)")
                if erased > 0 { engine.bytesDeleted() }
                return erased
            }
        }
    }

    package func endTerm(keepAccounts: Bool, keepRoster: Bool) throws -> TermCleared {
        try translatingErrors("ending the term") {
            try sql.transaction {
                let views = try sql.queryFirst("SELECT count(*) AS n FROM views") { $0.int("n") } ?? 0
                // Views and pictures go with their snaps (ON DELETE CASCADE).
                let snaps = try sql.execute("DELETE FROM snaps")
                try sql.execute("DELETE FROM rejected_snaps")
                let sessions = try sql.execute("DELETE FROM sessions") + sql.execute("DELETE FROM device_tokens")
                // A student's pins, albums, map and movies go with the account; a roster kept for
                // the next term frees their names to be registered again.
                if keepRoster && !keepAccounts {
                    try sql.execute("UPDATE roster SET claimed_by = NULL WHERE claimed_by IN (SELECT id FROM users WHERE NOT is_admin)")
                }
                // Last term's names would otherwise still register in the next (cleared first, so
                // the entries of the accounts that go are counted too).
                let roster = keepRoster ? 0 : try clearRoster(classID: nil)
                let accounts = keepAccounts ? 0 : try sql.execute("DELETE FROM users WHERE NOT is_admin")
                if snaps > 0 || accounts > 0 { engine.bytesDeleted() }
                return TermCleared(snaps: snaps, views: views, sessions: sessions, accounts: accounts, rosterEntries: roster)
            }
        }
    }

    package func answers() throws {
        try translatingErrors("checking the database") { _ = try sql.queryFirst("SELECT 1 AS one") { $0.int("one") } }
    }

    package func compact() throws {
        try translatingErrors("compacting") { try engine.compact() }
    }

    package func largestStoredImage() throws -> Int {
        try translatingErrors("measuring stored images") {
            // length() of a blob reads SQLite's record header, not the image pages.
            try sql.queryFirst(
                """
                SELECT coalesce(max(largest), 0) AS largest FROM (
                    SELECT max(length(bytes)) AS largest FROM snap_images
                    UNION ALL SELECT max(length(bytes)) FROM photo_images
                    UNION ALL SELECT max(length(bytes)) FROM photo_thumbnails) sizes
                """
            ) { $0.int("largest") } ?? 0
        }
    }

    package func statistics(now: Int64, classID: Int64?) throws -> [Statistic] {
        try translatingErrors("collecting statistics") {
            let live: SQL = "expires_at > \(now) AND NOT image_erased"
            // Of one class: its members and its staff (the site admins among both, as AdminListUsers
            // lists them), its feeds and what is in them.
            let users: SQL =
                classID.map {
                    "SELECT count(*) FROM users WHERE is_admin OR id IN (SELECT user_id FROM memberships WHERE class_id = \($0))"
                }
                ?? "SELECT count(*) FROM users"
            let admins: SQL =
                classID.map {
                    """
                    SELECT count(*) FROM users
                    WHERE is_admin OR id IN (SELECT user_id FROM memberships WHERE class_id = \($0) AND role <> 'student')
                    """
                } ?? "SELECT count(*) FROM users WHERE is_admin"
            let feeds: SQL = classID.map { "SELECT count(*) FROM feeds WHERE class_id = \($0)" } ?? "SELECT count(*) FROM feeds"
            let snaps = Self.snaps(ofClass: classID)
            let ofSnaps: SQL = classID == nil ? "TRUE" : "snap_id IN (SELECT id FROM snaps WHERE \(snaps))"
            // One statement: one snapshot on either engine.
            let counters = try sql.queryFirst(
                """
                SELECT (\(users)) AS users,
                       (\(admins)) AS admins,
                       (\(feeds)) AS feeds,
                       (SELECT count(*) FROM snaps WHERE \(live) AND \(snaps)) AS snaps_live,
                       (SELECT count(*) FROM snaps WHERE NOT (\(live)) AND \(snaps)) AS snaps_expired,
                       (SELECT count(*) FROM views WHERE \(ofSnaps)) AS views,
                       (SELECT coalesce(sum(length(bytes)), 0) FROM snap_images WHERE \(ofSnaps)) AS image_bytes_stored,
                       \(engine.databaseSize) AS database_bytes,
                       (SELECT count(*) FROM sessions WHERE expires_at > \(now)) AS sessions
                """
            ) { row in Self.statisticNames.map { Statistic(name: $0, value: row.int64($0)) } }
            return counters ?? []
        }
    }

    /// Snaps past their expiry whose image is still stored and not kept for a report, found
    /// through the partial index of snaps awaiting the purge (the text says `NOT image_erased`,
    /// as the index does).
    func expiredUnerasedSnaps(now: Int64) -> SQL {
        "SELECT id FROM snaps WHERE NOT image_erased AND expires_at <= \(now) AND id NOT IN (\(Self.reportedSnaps))"
    }

    /// The counters of `admin stats`, in their order.
    static let statisticNames = [
        "users", "admins", "feeds", "snaps_live", "snaps_expired", "views", "image_bytes_stored",
        "database_bytes", "sessions",
    ]
}
