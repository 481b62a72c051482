import SQLite
import Wire

/// Snaps: posting, listing, and the view-once claim.
extension SQLiteStore {
    public func insertSnap(_ snap: NewSnap) throws -> SnapListing {
        do {
            return try translatingErrors("posting snap") {
                try database.transaction {
                    try database.run("""
                        INSERT INTO snaps (feed_id, poster_id, posted_at, expires_at, byte_count, width, height,
                                           format, sha256)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                        """, [.integer(snap.feedID), .integer(snap.posterID), .integer(snap.postedAt),
                              .integer(snap.expiresAt), .int(snap.image.count), .int(snap.width), .int(snap.height),
                              .integer(Int64(snap.format.rawValue)), .blob(snap.sha256)])
                    let id = database.lastInsertRowID
                    try database.run("INSERT INTO snap_images (snap_id, bytes) VALUES (?1, ?2)",
                                     [.integer(id), .blob(snap.image)])
                    guard let listing = try database.queryFirst(Self.listingByIDSQL, [.integer(snap.posterID), .integer(id)],
                                                                row: StoreRows.snapListing) else {
                        throw StoreError(.internalError, "snap \(id) vanished right after its insert")
                    }
                    return listing
                }
            }
        } catch let error as StoreError where error.kind == .notFound {
            throw StoreError(.notFound, "feed \(snap.feedID) or user \(snap.posterID) does not exist")
        }
    }

    public func snapListings(feedID: Int64?, viewerID: Int64, now: Int64) throws -> [SnapListing] {
        try translatingErrors("listing snaps") {
            if let feedID {
                return try database.query(Self.liveFeedListingSQL, [.integer(viewerID), .integer(now), .integer(feedID)],
                                          row: StoreRows.snapListing)
            }
            return try database.query(Self.liveListingSQL, [.integer(viewerID), .integer(now)], row: StoreRows.snapListing)
        }
    }

    /// Includes expired and erased snaps, so callers can tell EXPIRED from NOT_FOUND.
    public func snapListing(id: Int64, viewerID: Int64, now: Int64) throws -> SnapListing? {
        try translatingErrors("looking up snap") {
            try database.queryFirst(Self.listingByIDSQL, [.integer(viewerID), .integer(id)], row: StoreRows.snapListing)
        }
    }

    /// The view-once gate. Checks run in this order: `notFound`, `ownSnap`, `expired`, then the
    /// insert of the (snap, viewer) row, whose primary-key conflict is `alreadyViewed`.
    ///
    /// Why it is safe under races: the insert, not an earlier SELECT, decides the winner. Two
    /// connections racing for the same pair serialize on SQLite's write lock; the loser's INSERT
    /// hits the primary key. The claim and the read of the bytes are one transaction (a savepoint
    /// when batched), so bytes are never handed out for a claim that was not committed with them,
    /// and the caller acknowledges only after COMMIT returned.
    public func claimView<R>(snapID: Int64, viewerID: Int64, now: Int64,
                             _ body: (SnapListing, [UInt8], any StoredBytes) throws -> R) throws -> R {
        try translatingErrors("opening snap") {
            try database.transaction {
                // One read of the snap serves the checks and the reply.
                guard let gate = try database.queryFirst(Self.claimGateSQL, [.integer(snapID)], row: { row in
                    (listing: try StoreRows.snapListing(row), erased: row.bool("image_erased"), sha256: row.blob("sha256"),
                     hasImage: row.bool("has_image"))
                }) else {
                    throw StoreError(.notFound, "no snap \(snapID)")
                }
                try StoreRows.checkClaim(gate.listing, erased: gate.erased, viewerID: viewerID, now: now)
                do {
                    try database.run("INSERT INTO views (snap_id, viewer_id, claimed_at) VALUES (?1, ?2, ?3)",
                                     [.integer(snapID), .integer(viewerID), .integer(now)])
                } catch let error as SQLiteError where error.isUniquenessViolation {
                    throw StoreRows.alreadyViewed(snapID)
                }
                let listing = try StoreRows.claimed(gate.listing, hasImage: gate.hasImage)
                return try database.withStoredBytes(table: "snap_images", column: "bytes", rowID: snapID) { image in
                    try body(listing, gate.sha256, image)
                }
            }
        }
    }

    public func snapViewers(snapID: Int64) throws -> [SnapViewerRecord] {
        try translatingErrors("listing who opened a snap") {
            try database.query("""
                SELECT u.name, v.claimed_at FROM views v JOIN users u ON u.id = v.viewer_id
                WHERE v.snap_id = ?1 ORDER BY v.claimed_at, u.name
                """, [.integer(snapID)]) { row in SnapViewerRecord(name: row.string("name"), viewedAt: row.int64("claimed_at")) }
        }
    }

    public func restoreView(snapID: Int64, userID: Int64) throws {
        try translatingErrors("restoring view") {
            let deleted = try database.run("DELETE FROM views WHERE snap_id = ?1 AND viewer_id = ?2",
                                           [.integer(snapID), .integer(userID)])
            guard deleted > 0 else {
                throw StoreError(.notFound, "user \(userID) has not opened snap \(snapID)")
            }
        }
    }

    public func deleteSnap(id: Int64) throws {
        try translatingErrors("deleting snap") {
            // The image and the views go with it (ON DELETE CASCADE).
            let deleted = try database.run("DELETE FROM snaps WHERE id = ?1", [.integer(id)])
            guard deleted > 0 else { throw StoreError(.notFound, "no snap \(id)") }
            eraseDeletedBytes()
        }
    }

    // MARK: Listing SQL (never touches snap_images)

    /// Columns of a `SnapListing`; ?1 is the viewer. Only the poster's own snaps count their
    /// views (one primary-key range each), so others' rows cost nothing more.
    static let listingColumns = """
        s.id, f.name AS feed_name, u.name AS poster_name, s.posted_at, s.expires_at,
               CASE WHEN s.poster_id = ?1 THEN 2
                    WHEN EXISTS (SELECT 1 FROM views v WHERE v.snap_id = s.id AND v.viewer_id = ?1) THEN 1
                    ELSE 0 END AS status,
               s.byte_count, s.width, s.height, s.format, s.poster_id,
               CASE WHEN s.poster_id = ?1 THEN (SELECT count(*) FROM views v WHERE v.snap_id = s.id) ELSE 0 END AS opened_count
        """
    static let listingFrom = """
        FROM snaps s
        JOIN feeds f ON f.id = s.feed_id
        JOIN users u ON u.id = s.poster_id
        """
    static let listingSelect = "SELECT " + listingColumns + "\n" + listingFrom
    /// ?1 snap id: the listing, then what the view-once gate checks. The status and the count of
    /// opens are not looked up: the gate refuses the poster, and for anyone else the insert of the
    /// view row, not a read before it, says whether the snap was opened already.
    static let claimGateSQL = "SELECT " + StoreRows.listingColumns(fixedState: .unread) + """
        ,
               s.image_erased, s.sha256,
               EXISTS (SELECT 1 FROM snap_images i WHERE i.snap_id = s.id) AS has_image

        """ + listingFrom + """

        WHERE s.id = ?1
        """
    /// ?1 viewer, ?2 now.
    static let liveListingSQL = listingSelect + """

        WHERE s.expires_at > ?2 AND s.image_erased = 0
        ORDER BY s.posted_at DESC, s.id DESC
        """
    /// ?1 viewer, ?2 now, ?3 feed.
    static let liveFeedListingSQL = listingSelect + """

        WHERE s.feed_id = ?3 AND s.expires_at > ?2 AND s.image_erased = 0
        ORDER BY s.posted_at DESC, s.id DESC
        """
    /// ?1 viewer, ?2 snap id; expired and erased snaps included.
    static let listingByIDSQL = listingSelect + """

        WHERE s.id = ?2
        """

}
