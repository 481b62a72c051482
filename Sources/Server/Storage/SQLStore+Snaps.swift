import SQL
import Wire

/// Snaps: posting, listing, and the view-once claim.
extension SQLStore: SnapStore {
    package func insertSnap(_ snap: NewSnap) throws -> SnapListing {
        do {
            return try translatingErrors("posting snap") { try engine.insertSnap(snap, in: self) }
        } catch let error as StoreError where error.kind == .notFound {
            throw StoreError(.notFound, "feed \(snap.feedID) or user \(snap.posterID) does not exist")
        }
    }

    package func snapListings(classID: Int64, feedID: Int64?, viewerID: Int64, now: Int64) throws -> [SnapListing] {
        try translatingErrors("listing snaps") {
            try sql.query(liveListing(classID: classID, feedID: feedID, viewerID: viewerID, now: now), StoreRows.snapListing)
        }
    }

    /// Includes expired and erased snaps, so callers can tell EXPIRED from NOT_FOUND.
    package func snapListing(id: Int64, classID: Int64, viewerID: Int64, now: Int64) throws -> SnapListing? {
        try translatingErrors("looking up snap") {
            try sql.queryFirst(listingByID(id, classID: classID, viewerID: viewerID), StoreRows.snapListing)
        }
    }

    /// The view-once gate. Checks run in this order: `notFound`, `ownSnap`, `expired`, then the
    /// insert of the (snap, viewer) row, whose primary-key conflict is `alreadyViewed`.
    ///
    /// Why it is safe under races: the insert, not an earlier SELECT, decides the winner. Two
    /// connections racing for the same pair serialize on the row (SQLite's write lock; on
    /// PostgreSQL the second insert waits for the first and then conflicts), and the loser's
    /// INSERT hits the primary key. The claim and the read of the bytes are one transaction (a
    /// savepoint when batched), so bytes are never handed out for a claim that was not committed
    /// with them, and the caller acknowledges only after COMMIT returned.
    package func claimView<R>(
        snapID: Int64, classID: Int64, viewerID: Int64, now: Int64,
        _ body: (SnapListing, [UInt8], any StoredBytes) throws -> R
    ) throws -> R {
        try translatingErrors("opening snap") {
            try sql.transaction {
                // One read of the snap serves the checks and the reply.
                guard
                    let gate = try sql.queryFirst(
                        claimGate(snapID, classID: classID),
                        { row in
                            (
                                listing: try StoreRows.snapListing(row), erased: row.bool("image_erased"), sha256: row.bytes("sha256"),
                                hasImage: row.bool("has_image"), awaiting: row.bool("awaiting_approval")
                            )
                        })
                else {
                    throw StoreError(.notFound, "no snap \(snapID)")
                }
                guard !gate.awaiting || gate.listing.posterID == viewerID else { throw StoreError(.notFound, "no snap \(snapID)") }
                try StoreRows.checkClaim(gate.listing, erased: gate.erased, viewerID: viewerID, now: now)
                do {
                    try sql.execute("INSERT INTO views (snap_id, viewer_id, claimed_at) VALUES (\(snapID), \(viewerID), \(now))")
                } catch let failure as any SQLFailure where failure.failureKind == .uniqueness {
                    throw StoreRows.alreadyViewed(snapID)
                }
                let listing = try StoreRows.claimed(gate.listing, hasImage: gate.hasImage)
                return try sql.withStoredBytes(table: "snap_images", column: "bytes", keyColumn: "snap_id", key: snapID) { image in
                    try body(listing, gate.sha256, image)
                }
            }
        }
    }

    package func snapViewers(snapID: Int64) throws -> [SnapViewerRecord] {
        try translatingErrors("listing who opened a snap") {
            try sql.query(
                """
                SELECT u.name, v.claimed_at FROM views v JOIN users u ON u.id = v.viewer_id
                WHERE v.snap_id = \(snapID) ORDER BY v.claimed_at, \(engine.bytewise(folded("u.name")))
                """
            ) { row in SnapViewerRecord(name: row.string("name"), viewedAt: row.int64("claimed_at")) }
        }
    }

    package func restoreView(snapID: Int64, classID: Int64, userID: Int64) throws {
        try translatingErrors("restoring view") {
            let deleted = try sql.execute(
                """
                DELETE FROM views WHERE snap_id = \(snapID) AND viewer_id = \(userID)
                  AND snap_id IN (SELECT id FROM snaps WHERE \(Self.snaps(ofClass: classID)))
                """)
            guard deleted > 0 else {
                throw StoreError(.notFound, "user \(userID) has not opened snap \(snapID)")
            }
        }
    }

    package func postingUsage(posterID: Int64, classID: Int64, since: Int64) throws -> PostingUsage {
        try translatingErrors("counting posts") {
            // A rejected post counts as posted: a rejection does not give the hour's slot back.
            let recent =
                try sql.queryFirst(
                    """
                    SELECT count(*) AS n, min(posted_at) AS oldest FROM (
                        SELECT posted_at FROM snaps
                        WHERE poster_id = \(posterID) AND posted_at > \(since) AND \(Self.snaps(ofClass: classID))
                        UNION ALL SELECT posted_at FROM rejected_snaps
                        WHERE poster_id = \(posterID) AND posted_at > \(since) AND \(Self.snaps(ofClass: classID))) posts
                    """
                ) { ($0.int("n"), $0.isNull("oldest") ? nil : $0.int64("oldest")) } ?? (0, nil)
            let stored =
                try sql.queryFirst(
                    """
                    SELECT CAST(coalesce(sum(byte_count), 0) AS BIGINT) AS bytes, min(expires_at) AS next FROM snaps
                    WHERE poster_id = \(posterID) AND NOT image_erased AND \(Self.snaps(ofClass: classID))
                    """
                ) { ($0.int64("bytes"), $0.isNull("next") ? nil : $0.int64("next")) } ?? (0, nil)
            return PostingUsage(recentPosts: recent.0, oldestRecentPost: recent.1, storedBytes: stored.0, nextExpiry: stored.1)
        }
    }

    package func applySnapLifetime(milliseconds: Int64, now: Int64) throws -> Int {
        try translatingErrors("applying the snap lifetime") {
            try sql.execute(
                """
                UPDATE snaps SET expires_at = posted_at + \(milliseconds)
                WHERE expires_at > \(now) AND NOT image_erased AND expires_at <> posted_at + \(milliseconds)
                  AND feed_id IN (SELECT f.id FROM feeds f JOIN classes c ON c.id = f.class_id WHERE c.snap_ttl_ms IS NULL)
                """)
        }
    }

    package func deleteSnap(id: Int64, classID: Int64) throws {
        try translatingErrors("deleting snap") {
            // The image and the views go with it (ON DELETE CASCADE).
            let deleted = try sql.execute("DELETE FROM snaps WHERE id = \(id) AND \(Self.snaps(ofClass: classID))")
            guard deleted > 0 else { throw StoreError(.notFound, "no snap \(id)") }
            engine.bytesDeleted()
        }
    }

    package func countSnaps(postedBefore: Int64, classID: Int64?) throws -> Int {
        try translatingErrors("counting old snaps") {
            try sql.queryFirst("SELECT count(*) AS n FROM snaps WHERE posted_at < \(postedBefore) AND \(Self.snaps(ofClass: classID))") {
                $0.int("n")
            } ?? 0
        }
    }

    package func deleteSnaps(postedBefore: Int64, classID: Int64?) throws -> Int {
        try translatingErrors("purging old snaps") {
            // One statement; the images and views go with the snaps (ON DELETE CASCADE), and the
            // rejection notices of snaps as old go too (they are not counted: no picture was kept).
            let deleted = try sql.execute("DELETE FROM snaps WHERE posted_at < \(postedBefore) AND \(Self.snaps(ofClass: classID))")
            try sql.execute("DELETE FROM rejected_snaps WHERE posted_at < \(postedBefore) AND \(Self.snaps(ofClass: classID))")
            if deleted > 0 { engine.bytesDeleted() }
            return deleted
        }
    }

    package func snapsAwaitingApproval(classID: Int64) throws -> [ExportedSnap] {
        try translatingErrors("listing snaps awaiting approval") {
            try exportRows("WHERE s.awaiting_approval AND f.class_id = \(classID) ORDER BY s.posted_at, s.id")
        }
    }

    package func approveSnap(id: Int64, classID: Int64) throws {
        try translatingErrors("approving a snap") {
            let approved = try sql.execute(
                "UPDATE snaps SET awaiting_approval = \(false) WHERE id = \(id) AND awaiting_approval AND \(Self.snaps(ofClass: classID))")
            guard approved > 0 else { throw StoreError(.notFound, "snap \(id) is not awaiting approval") }
        }
    }

    package func rejectSnap(id: Int64, classID: Int64, reason: String, at: Int64) throws -> Int64 {
        try translatingErrors("rejecting a snap") {
            try sql.transaction {
                guard
                    let poster = try sql.queryFirst(
                        "SELECT poster_id FROM snaps WHERE id = \(id) AND awaiting_approval AND \(Self.snaps(ofClass: classID))",
                        { $0.int64("poster_id") })
                else {
                    throw StoreError(.notFound, "snap \(id) is not awaiting approval")
                }
                // The notice keeps the snap's own id (ids are never handed out twice) and what its
                // poster saw of it; the picture goes with the snap.
                try sql.execute(
                    """
                    INSERT INTO rejected_snaps \
                    (id, feed_id, poster_id, posted_at, expires_at, byte_count, width, height, format, reason, rejected_at)
                    SELECT id, feed_id, poster_id, posted_at, expires_at, byte_count, width, height, format, \(reason), \(at)
                    FROM snaps WHERE id = \(id)
                    """)
                try sql.execute("DELETE FROM snaps WHERE id = \(id)")
                engine.bytesDeleted()
                return poster
            }
        }
    }

    package func rejectedSnaps(posterID: Int64, classID: Int64, feedID: Int64?, now: Int64) throws -> [SnapListing] {
        try translatingErrors("listing rejected snaps") {
            let feed: SQL = feedID.map { "r.feed_id = \($0) AND " } ?? ""
            return try sql.query(
                """
                SELECT r.id, f.name AS feed_name, u.name AS poster_name, r.posted_at, r.expires_at, \(SnapState.rejected) AS status,
                       r.byte_count, r.width, r.height, r.format, r.poster_id, 0 AS opened_count, r.reason
                FROM rejected_snaps r JOIN feeds f ON f.id = r.feed_id JOIN users u ON u.id = r.poster_id
                WHERE \(feed)f.class_id = \(classID) AND r.poster_id = \(posterID) AND r.expires_at > \(now)
                ORDER BY r.posted_at DESC, r.id DESC
                """
            ) { row in
                var listing = try StoreRows.snapListing(row)
                listing.note = row.string("reason")
                return listing
            }
        }
    }

    package func dismissRejection(id: Int64, posterID: Int64, classID: Int64) throws -> Bool {
        try translatingErrors("dismissing a rejection") {
            try sql.execute(
                "DELETE FROM rejected_snaps WHERE id = \(id) AND poster_id = \(posterID) AND \(Self.snaps(ofClass: classID))") > 0
        }
    }

    package func exportedSnaps(classID: Int64?, afterID: Int64, limit: Int, includePending: Bool) throws -> (
        total: Int, snaps: [ExportedSnap]
    ) {
        try translatingErrors("listing snaps for an export") {
            // A snap awaiting approval is nobody's to see yet: out of an export unless asked for.
            let ofClass = Self.snaps(ofClass: classID, as: "s.")
            let approved: SQL = includePending ? " AND \(ofClass)" : " AND NOT s.awaiting_approval AND \(ofClass)"
            // One transaction: the page, its viewers and the total from one snapshot.
            return try sql.transaction {
                let total = try sql.queryFirst("SELECT count(*) AS n FROM snaps s WHERE TRUE\(approved)") { $0.int("n") } ?? 0
                return (total, try exportRows("WHERE s.id > \(afterID)\(approved) ORDER BY s.id LIMIT \(limit)"))
            }
        }
    }

    /// The snaps `filter` (a WHERE clause and an order) selects, as an export describes them,
    /// each with who opened it when.
    func exportRows(_ filter: SQL) throws -> [ExportedSnap] {
        var snaps = try sql.query(
            """
            SELECT s.id, f.name AS feed_name, u.name AS poster_name, s.posted_at, s.expires_at, s.format, s.byte_count,
                   s.width, s.height, EXISTS (SELECT 1 FROM snap_images i WHERE i.snap_id = s.id) AS has_image,
                   s.awaiting_approval, (SELECT count(*) FROM reports r WHERE r.snap_id = s.id) AS report_count
            \(Self.listingFrom)\(filter)
            """
        ) { row in
            guard let format = ImageFormat(rawValue: UInt8(truncatingIfNeeded: row.int64("format"))) else {
                throw StoreError(.corrupt, "snap \(row.int64("id")) has an unknown format")
            }
            return ExportedSnap(
                id: UInt64(row.int64("id")), feed: row.string("feed_name"), poster: row.string("poster_name"),
                postedAt: row.int64("posted_at"), expiresAt: row.int64("expires_at"), imageKind: format,
                byteCount: UInt32(clamping: row.int64("byte_count")), width: UInt32(clamping: row.int("width")),
                height: UInt32(clamping: row.int("height")), pictureKept: row.bool("has_image"), viewers: [],
                awaitingApproval: row.bool("awaiting_approval"), reportCount: UInt32(clamping: row.int64("report_count")))
        }
        guard !snaps.isEmpty else { return [] }
        let ids = snaps.map { Int64($0.id) }
        var viewers: [UInt64: [SnapViewer]] = [:]
        _ = try sql.query(
            """
            SELECT v.snap_id, u.name, v.claimed_at FROM views v JOIN users u ON u.id = v.viewer_id
            WHERE v.snap_id BETWEEN \(ids.min()!) AND \(ids.max()!)
            ORDER BY v.snap_id, v.claimed_at, \(engine.bytewise(folded("u.name")))
            """
        ) { row in
            viewers[UInt64(row.int64("snap_id")), default: []].append(
                SnapViewer(username: row.string("name"), viewedAt: row.int64("claimed_at")))
        }
        for index in snaps.indices { snaps[index].viewers = viewers[snaps[index].id] ?? [] }
        return snaps
    }

    package func withSnapPicture<R>(id: Int64, classID: Int64, _ body: (SnapListing, [UInt8], any StoredBytes) throws -> R) throws -> R {
        try translatingErrors("reading a snap's picture") {
            try sql.transaction {
                guard
                    let gate = try sql.queryFirst(
                        claimGate(id, classID: classID),
                        { row in
                            (listing: try StoreRows.snapListing(row), sha256: row.bytes("sha256"), hasImage: row.bool("has_image"))
                        })
                else {
                    throw StoreError(.notFound, "no snap \(id)")
                }
                let listing = try StoreRows.claimed(gate.listing, hasImage: gate.hasImage)
                return try sql.withStoredBytes(table: "snap_images", column: "bytes", keyColumn: "snap_id", key: id) { image in
                    try body(listing, gate.sha256, image)
                }
            }
        }
    }

    // MARK: Statements (listings never touch snap_images)

    /// `INSERT INTO snaps (…) VALUES (…)` for `snap`, without its image: each engine's
    /// `insertSnap` adds what it returns and the image's row.
    func snapInsert(_ snap: NewSnap) -> SQL {
        """
        INSERT INTO snaps (feed_id, poster_id, posted_at, expires_at, byte_count, width, height, format, sha256, awaiting_approval)
        VALUES (\(snap.feedID), \(snap.posterID), \(snap.postedAt), \(snap.expiresAt), \(snap.image.count), \(snap.width),
                \(snap.height), \(snap.format), \(snap.sha256), \(snap.awaitingApproval))
        """
    }

    /// Columns of a `SnapListing` as `viewerID` sees it. Only the poster's own snaps count their
    /// views (one primary-key range each), so others' rows cost nothing more.
    func listingColumns(viewerID: Int64) -> SQL {
        """
        s.id, f.name AS feed_name, u.name AS poster_name, s.posted_at, s.expires_at,
               CASE WHEN s.poster_id = \(viewerID) AND s.awaiting_approval THEN \(SnapState.pending)
                    WHEN s.poster_id = \(viewerID) THEN \(SnapState.sent)
                    WHEN EXISTS (SELECT 1 FROM views v WHERE v.snap_id = s.id AND v.viewer_id = \(viewerID)) THEN \(SnapState.read)
                    ELSE \(SnapState.unread) END AS status,
               s.byte_count, s.width, s.height, s.format, s.poster_id,
               CASE WHEN s.poster_id = \(viewerID) THEN (SELECT count(*) FROM views v WHERE v.snap_id = s.id) ELSE 0 END AS opened_count
        """
    }

    /// The columns `StoreRows.snapListing` reads with the state and the count of opens given
    /// instead of looked up: a post is its poster's (sent, opened by nobody yet), and the
    /// view-once gate leaves both to the insert of the view.
    static func listingColumns(fixedState state: SnapState) -> SQL {
        """
        s.id, f.name AS feed_name, u.name AS poster_name, s.posted_at, s.expires_at, \(raw: String(state.rawValue)) AS status,
        s.byte_count, s.width, s.height, s.format, s.poster_id, 0 AS opened_count
        """
    }

    static let listingFrom: SQL = """

        FROM snaps s
        JOIN feeds f ON f.id = s.feed_id
        JOIN users u ON u.id = s.poster_id

        """

    /// The listing, then what the view-once gate checks. The status and the count of opens are
    /// not looked up: the gate refuses the poster, and for anyone else the insert of the view
    /// row, not a read before it, says whether the snap was opened already.
    func claimGate(_ snapID: Int64, classID: Int64) -> SQL {
        """
        SELECT \(Self.listingColumns(fixedState: .unread)),
               s.image_erased, s.sha256, s.awaiting_approval, EXISTS (SELECT 1 FROM snap_images i WHERE i.snap_id = s.id) AS has_image
        \(Self.listingFrom)WHERE s.id = \(snapID) AND f.class_id = \(classID)
        """
    }

    /// Live snaps of one feed (or every feed of the class), newest first.
    func liveListing(classID: Int64, feedID: Int64?, viewerID: Int64, now: Int64) -> SQL {
        let feed: SQL = feedID.map { "s.feed_id = \($0) AND " } ?? "f.class_id = \(classID) AND "
        return """
            SELECT \(listingColumns(viewerID: viewerID))\(Self.listingFrom)WHERE \(feed)s.expires_at > \(now) AND NOT s.image_erased
              AND \(Self.visible(to: viewerID))
            ORDER BY s.posted_at DESC, s.id DESC
            """
    }

    /// One snap of the class, expired and erased ones included.
    func listingByID(_ id: Int64, classID: Int64, viewerID: Int64) -> SQL {
        """
        SELECT \(listingColumns(viewerID: viewerID))\(Self.listingFrom)WHERE s.id = \(id) AND f.class_id = \(classID) \
        AND \(Self.visible(to: viewerID))
        """
    }

    /// Rows of `snaps` (or `rejected_snaps`, or a table aliased `prefix`) of the class's feeds;
    /// every row when `classID` is nil.
    static func snaps(ofClass classID: Int64?, as prefix: String = "") -> SQL {
        guard let classID else { return "TRUE" }
        return "\(raw: prefix)feed_id IN (SELECT id FROM feeds WHERE class_id = \(classID))"
    }

    /// A snap awaiting approval is its poster's alone until an admin approves it.
    static func visible(to viewerID: Int64) -> SQL { "(NOT s.awaiting_approval OR s.poster_id = \(viewerID))" }
}

extension SnapState: SQLBindable {}
extension ImageFormat: SQLBindable {}
