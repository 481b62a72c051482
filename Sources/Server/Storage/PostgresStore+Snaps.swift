import PostgreSQL
import SQLite
import Wire

/// Snaps on PostgreSQL: posting, listing, and the view-once claim, with SQLite's rules.
extension PostgresStore: SnapStore, MaintenanceStore {
    /// One statement, one round trip: the snap, its image, and the snap as its poster sees it
    /// (sent, opened by nobody yet). Measured with scripts/cluster-bench.sh against three
    /// statements before it (docs/benchmarks.md).
    public func insertSnap(_ snap: NewSnap) throws -> SnapListing {
        do {
            return try translatingErrors("posting snap") {
                guard let row = try connection.query("""
                    WITH s AS (
                        INSERT INTO snaps (feed_id, poster_id, posted_at, expires_at, byte_count, width, height, format, sha256)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *
                    ), i AS (
                        INSERT INTO snap_images (snap_id, bytes) SELECT id, $10 FROM s
                    )
                    SELECT \(StoreRows.listingColumns(fixedState: .sent))
                    FROM s JOIN feeds f ON f.id = s.feed_id JOIN users u ON u.id = s.poster_id
                    """, [.integer(snap.feedID), .integer(snap.posterID), .integer(snap.postedAt), .integer(snap.expiresAt),
                          .integer(Int64(snap.image.count)), .integer(Int64(snap.width)), .integer(Int64(snap.height)),
                          .integer(Int64(snap.format.rawValue)), .bytes(snap.sha256), .bytes(snap.image)]).first else {
                    throw StoreError(.internalError, "a posted snap came back without its feed or poster")
                }
                return try StoreRows.snapListing(row)
            }
        } catch let error as StoreError where error.kind == .notFound {
            throw StoreError(.notFound, "feed \(snap.feedID) or user \(snap.posterID) does not exist")
        }
    }

    public func snapListings(feedID: Int64?, viewerID: Int64, now: Int64) throws -> [SnapListing] {
        try translatingErrors("listing snaps") {
            let rows = if let feedID {
                try connection.query(Self.liveFeedListingSQL, [.integer(viewerID), .integer(now), .integer(feedID)])
            } else {
                try connection.query(Self.liveListingSQL, [.integer(viewerID), .integer(now)])
            }
            return try rows.map(StoreRows.snapListing)
        }
    }

    public func snapListing(id: Int64, viewerID: Int64, now: Int64) throws -> SnapListing? {
        try translatingErrors("looking up snap") {
            try connection.query(Self.listingByIDSQL, [.integer(viewerID), .integer(id)]).first.map(StoreRows.snapListing)
        }
    }

    /// The claim is one transaction: the insert of (snap, viewer) decides the one winner by its
    /// primary key (a concurrent second insert waits for the first and then conflicts), and the
    /// bytes are read in the same transaction, so none leave for a claim that was not committed.
    public func claimView<R>(snapID: Int64, viewerID: Int64, now: Int64,
                             _ body: (SnapListing, [UInt8], any StoredBytes) throws -> R) throws -> R {
        try translatingErrors("opening snap") {
            try connection.transaction {
                guard let row = try connection.query(Self.claimGateSQL, [.integer(snapID)]).first else {
                    throw StoreError(.notFound, "no snap \(snapID)")
                }
                let gate = try StoreRows.snapListing(row)
                try StoreRows.checkClaim(gate, erased: row.bool("image_erased"), viewerID: viewerID, now: now)
                do {
                    try connection.execute("INSERT INTO views (snap_id, viewer_id, claimed_at) VALUES ($1, $2, $3)",
                                           [.integer(snapID), .integer(viewerID), .integer(now)])
                } catch let error as PostgresError where error.isUniquenessViolation {
                    throw StoreRows.alreadyViewed(snapID)
                }
                let listing = try StoreRows.claimed(gate, hasImage: row.bool("has_image"))
                let connection = self.connection
                return try body(listing, row.bytes("sha256"), PostgresBytes {
                    try connection.query("SELECT bytes FROM snap_images WHERE snap_id = $1", [.integer(snapID)]).first?.bytes("bytes") ?? []
                })
            }
        }
    }

    public func snapViewers(snapID: Int64) throws -> [SnapViewerRecord] {
        try translatingErrors("listing who opened a snap") {
            try connection.query("""
                SELECT u.name, v.claimed_at FROM views v JOIN users u ON u.id = v.viewer_id
                WHERE v.snap_id = $1 ORDER BY v.claimed_at, ascii_lower(u.name)
                """, [.integer(snapID)]).map { SnapViewerRecord(name: $0.string("name"), viewedAt: $0.int64("claimed_at")) }
        }
    }

    public func restoreView(snapID: Int64, userID: Int64) throws {
        try translatingErrors("restoring view") {
            let deleted = try connection.execute("DELETE FROM views WHERE snap_id = $1 AND viewer_id = $2", [.integer(snapID), .integer(userID)])
            guard deleted > 0 else { throw StoreError(.notFound, "user \(userID) has not opened snap \(snapID)") }
        }
    }

    public func deleteSnap(id: Int64) throws {
        try translatingErrors("deleting snap") {
            let deleted = try connection.execute("DELETE FROM snaps WHERE id = $1", [.integer(id)])
            guard deleted > 0 else { throw StoreError(.notFound, "no snap \(id)") }
        }
    }

    // MARK: Maintenance

    /// One instance at a time: the others find the lock taken and skip this round.
    public func purgeExpired(now: Int64) throws -> Int {
        try translatingErrors("purging expired snaps") {
            try connection.transaction {
                guard try connection.query("SELECT pg_try_advisory_xact_lock(7363616871) AS mine")[0].bool("mine") else { return 0 }
                let erased = try connection.execute("""
                    DELETE FROM snap_images WHERE snap_id IN (SELECT id FROM snaps WHERE NOT image_erased AND expires_at <= $1)
                    """, [.integer(now)])
                try connection.execute("UPDATE snaps SET image_erased = true WHERE NOT image_erased AND expires_at <= $1", [.integer(now)])
                return erased
            }
        }
    }

    /// PostgreSQL reclaims deleted rows itself (autovacuum); nothing waits in a write-ahead log
    /// the way SQLite's WAL does.
    public func compact() throws {}

    public func largestStoredImage() throws -> Int {
        try translatingErrors("measuring stored images") {
            try connection.query("""
                SELECT greatest(coalesce((SELECT max(octet_length(bytes)) FROM snap_images), 0),
                                coalesce((SELECT max(octet_length(bytes)) FROM photo_images), 0),
                                coalesce((SELECT max(octet_length(bytes)) FROM photo_thumbnails), 0)) AS largest
                """)[0].int("largest")
        }
    }

    public func statistics(now: Int64) throws -> [Statistic] {
        try translatingErrors("collecting statistics") {
            let live = "expires_at > $1 AND NOT image_erased"
            // One statement: one snapshot.
            let row = try connection.query("""
                SELECT (SELECT count(*) FROM users) AS users,
                       (SELECT count(*) FROM users WHERE is_admin) AS admins,
                       (SELECT count(*) FROM feeds) AS feeds,
                       (SELECT count(*) FROM snaps WHERE \(live)) AS snaps_live,
                       (SELECT count(*) FROM snaps WHERE NOT (\(live))) AS snaps_expired,
                       (SELECT count(*) FROM views) AS views,
                       (SELECT coalesce(sum(octet_length(bytes)), 0)::bigint FROM snap_images) AS image_bytes_stored,
                       pg_database_size(current_database()) AS database_bytes,
                       (SELECT count(*) FROM sessions WHERE expires_at > $1) AS sessions
                """, [.integer(now)])[0]
            return ["users", "admins", "feeds", "snaps_live", "snaps_expired", "views", "image_bytes_stored", "database_bytes", "sessions"]
                .map { Statistic(name: $0, value: row.int64($0)) }
        }
    }

    // MARK: Listing SQL (never touches snap_images' bytes)

    static let listingColumns = """
        s.id, f.name AS feed_name, u.name AS poster_name, s.posted_at, s.expires_at,
               CASE WHEN s.poster_id = $1 THEN 2
                    WHEN EXISTS (SELECT 1 FROM views v WHERE v.snap_id = s.id AND v.viewer_id = $1) THEN 1
                    ELSE 0 END AS status,
               s.byte_count, s.width, s.height, s.format, s.poster_id,
               CASE WHEN s.poster_id = $1 THEN (SELECT count(*) FROM views v WHERE v.snap_id = s.id) ELSE 0 END AS opened_count
        """
    static let listingFrom = "\nFROM snaps s JOIN feeds f ON f.id = s.feed_id JOIN users u ON u.id = s.poster_id\n"
    static let listingSelect = "SELECT " + listingColumns + listingFrom
    /// $1 snap id: the listing, then what the view-once gate checks. As in SQLite, the status and
    /// the count of opens are not looked up: the gate refuses the poster, and for anyone else the
    /// view row's insert decides.
    static let claimGateSQL = "SELECT " + StoreRows.listingColumns(fixedState: .unread) + """
        ,
               s.image_erased, s.sha256, EXISTS (SELECT 1 FROM snap_images i WHERE i.snap_id = s.id) AS has_image
        """ + listingFrom + "WHERE s.id = $1"
    static let liveListingSQL = listingSelect + "WHERE s.expires_at > $2 AND NOT s.image_erased ORDER BY s.posted_at DESC, s.id DESC"
    static let liveFeedListingSQL = listingSelect
        + "WHERE s.feed_id = $3 AND s.expires_at > $2 AND NOT s.image_erased ORDER BY s.posted_at DESC, s.id DESC"
    static let listingByIDSQL = listingSelect + "WHERE s.id = $2"

}

/// Image bytes on PostgreSQL, read (one `bytea` fetch) only when asked for.
struct PostgresBytes: StoredBytes {
    let read: () throws -> [UInt8]
    func array() throws -> [UInt8] { try read() }
}
