import SQL

/// Feeds: creating, listing with counts, emptying and deleting.
extension SQLStore: FeedStore {
    package func createFeed(name: String, classID: Int64, at: Int64) throws -> FeedRecord {
        do {
            return try translatingErrors("creating feed") {
                let id = try sql.queryFirst(
                    "INSERT INTO feeds (class_id, name, created_at) VALUES (\(classID), \(name), \(at)) RETURNING id"
                ) { $0.int64("id") }
                return FeedRecord(id: id ?? 0, classID: classID, name: name, createdAt: at)
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw StoreError(.conflict, "a feed named \(name) already exists")
        }
    }

    package func deleteFeed(named name: String, classID: Int64) throws {
        try translatingErrors("deleting feed") {
            // Snaps, their images and views go with the feed (ON DELETE CASCADE), in one statement.
            let deleted = try sql.execute(
                "DELETE FROM feeds WHERE class_id = \(classID) AND \(folded("name")) = \(folded("\(name)"))")
            guard deleted > 0 else { throw StoreError(.notFound, "no feed named \(name)") }
            engine.bytesDeleted()
        }
    }

    package func feed(named name: String, classID: Int64) throws -> FeedRecord? {
        try translatingErrors("looking up feed") {
            try sql.queryFirst(
                """
                SELECT id, class_id, name, created_at FROM feeds WHERE class_id = \(classID) AND \(folded("name")) = \(folded("\(name)"))
                """
            ) { row in
                FeedRecord(
                    id: row.int64("id"), classID: row.int64("class_id"), name: row.string("name"), createdAt: row.int64("created_at"))
            }
        }
    }

    package func feedSummaries(classID: Int64, viewerID: Int64, now: Int64) throws -> [FeedSummary] {
        try translatingErrors("listing feeds") {
            try sql.query(feedSummaries(classID: classID, viewerID: viewerID, now: now)) { row in
                FeedSummary(
                    id: row.int64("id"), name: row.string("name"),
                    snapCount: row.int64("snap_count"), unreadCount: row.int64("unread_count"))
            }
        }
    }

    package func resetFeed(id: Int64) throws -> Int {
        try translatingErrors("resetting feed") { try reset("feed_id = \(id)") }
    }

    package func resetAllFeeds(classID: Int64?) throws -> Int {
        try translatingErrors("resetting all feeds") {
            try reset(classID.map { "feed_id IN (SELECT id FROM feeds WHERE class_id = \($0))" } ?? "1 = 1")
        }
    }

    /// Deletes the snaps `filter` names with their images and views (they cascade); a reported
    /// one is only ended, its picture kept for the admins until its report is resolved.
    private func reset(_ filter: SQL) throws -> Int {
        try sql.transaction {
            let ended = try sql.execute(
                """
                UPDATE snaps SET expires_at = posted_at WHERE \(filter) AND expires_at > posted_at AND id IN (\(Self.reportedSnaps))
                """)
            let deleted = try sql.execute("DELETE FROM snaps WHERE \(filter) AND id NOT IN (\(Self.reportedSnaps))")
            if deleted > 0 { engine.bytesDeleted() }
            return deleted + ended
        }
    }

    /// A snap `s` that `viewerID` has not read: live, approved, not theirs, and no view row of
    /// theirs. One definition for a feed's unread count and a class's.
    static func unread(by viewerID: Int64, now: Int64) -> SQL {
        """
        s.expires_at > \(now) AND NOT s.image_erased AND NOT s.awaiting_approval AND s.poster_id <> \(viewerID) \
        AND NOT EXISTS (SELECT 1 FROM views v WHERE v.snap_id = s.id AND v.viewer_id = \(viewerID))
        """
    }

    /// Every feed of the class with its counts for `viewerID`. Live = unexpired and image not
    /// erased; unread = live, not the viewer's own, and no view row of theirs.
    func feedSummaries(classID: Int64, viewerID: Int64, now: Int64) -> SQL {
        """
        SELECT f.id, f.name,
               (SELECT count(*) FROM snaps s
                WHERE s.feed_id = f.id AND s.expires_at > \(now) AND NOT s.image_erased AND \(Self.visible(to: viewerID))) AS snap_count,
               (SELECT count(*) FROM snaps s WHERE s.feed_id = f.id AND \(Self.unread(by: viewerID, now: now))) AS unread_count
        FROM feeds f
        WHERE f.class_id = \(classID)
        ORDER BY \(engine.bytewise(folded("f.name"))), f.id
        """
    }
}
