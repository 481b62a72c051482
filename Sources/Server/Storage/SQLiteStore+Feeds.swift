import SQLite

/// Feeds: creating, listing with counts, emptying and deleting.
extension SQLiteStore {
    public func createFeed(name: String, at: Int64) throws -> FeedRecord {
        do {
            return try translatingErrors("creating feed") {
                try database.run("INSERT INTO feeds (name, created_at) VALUES (?1, ?2)", [.text(name), .integer(at)])
                return FeedRecord(id: database.lastInsertRowID, name: name, createdAt: at)
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw StoreError(.conflict, "a feed named \(name) already exists")
        }
    }

    public func deleteFeed(named name: String) throws {
        try translatingErrors("deleting feed") {
            // Snaps, their images and views go with the feed (ON DELETE CASCADE), in one statement.
            let deleted = try database.run("DELETE FROM feeds WHERE name = ?1", [.text(name)])
            guard deleted > 0 else { throw StoreError(.notFound, "no feed named \(name)") }
            eraseDeletedBytes()
        }
    }

    public func feed(named name: String) throws -> FeedRecord? {
        try translatingErrors("looking up feed") {
            try database.queryFirst("SELECT id, name, created_at FROM feeds WHERE name = ?1", [.text(name)]) { row in
                FeedRecord(id: row.int64("id"), name: row.string("name"), createdAt: row.int64("created_at"))
            }
        }
    }

    public func feedSummaries(viewerID: Int64, now: Int64) throws -> [FeedSummary] {
        try translatingErrors("listing feeds") {
            try database.query(Self.feedSummariesSQL, [.integer(viewerID), .integer(now)]) { row in
                FeedSummary(id: row.int64("id"), name: row.string("name"),
                            snapCount: row.int64("snap_count"), unreadCount: row.int64("unread_count"))
            }
        }
    }

    public func resetFeed(id: Int64) throws -> Int {
        try translatingErrors("resetting feed") {
            // One statement, so it is atomic even outside a transaction; images and views cascade.
            let deleted = try database.run("DELETE FROM snaps WHERE feed_id = ?1", [.integer(id)])
            if deleted > 0 { eraseDeletedBytes() }
            return deleted
        }
    }

    public func resetAllFeeds() throws -> Int {
        try translatingErrors("resetting all feeds") {
            let deleted = try database.run("DELETE FROM snaps")
            if deleted > 0 { eraseDeletedBytes() }
            return deleted
        }
    }

    /// ?1 viewer, ?2 now. Live = unexpired and image not erased; unread = live, not the viewer's
    /// own, and no view row of theirs.
    static let feedSummariesSQL = """
        SELECT f.id, f.name,
               (SELECT count(*) FROM snaps s
                WHERE s.feed_id = f.id AND s.expires_at > ?2 AND s.image_erased = 0) AS snap_count,
               (SELECT count(*) FROM snaps s
                WHERE s.feed_id = f.id AND s.expires_at > ?2 AND s.image_erased = 0
                  AND s.poster_id <> ?1
                  AND NOT EXISTS (SELECT 1 FROM views v WHERE v.snap_id = s.id AND v.viewer_id = ?1)) AS unread_count
        FROM feeds f
        ORDER BY f.name, f.id
        """
}
