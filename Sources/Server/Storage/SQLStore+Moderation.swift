import SQL
import Wire

/// Reports and suspensions, written once for both engines.
extension SQLStore: ModerationStore {
    package func addReport(snapID: Int64, reporterID: Int64, reason: String, at: Int64) throws {
        try translatingErrors("recording a report") {
            do {
                try sql.execute(
                    """
                    INSERT INTO reports (snap_id, reporter_id, reason, reported_at) VALUES (\(snapID), \(reporterID), \(reason), \(at))
                    """)
            } catch let failure as any SQLFailure where failure.failureKind == .uniqueness {
                throw StoreError(.conflict, "you reported snap \(snapID) already; an admin will look at it")
            }
        }
    }

    package func openReports(classID: Int64) throws -> [ReportedSnap] {
        try translatingErrors("listing reports") {
            try sql.transaction {
                var snaps = try sql.query(
                    """
                    SELECT s.id, f.name AS feed_name, u.name AS poster_name, s.posted_at, s.expires_at,
                           EXISTS (SELECT 1 FROM snap_images i WHERE i.snap_id = s.id) AS has_image,
                           (SELECT min(r.reported_at) FROM reports r WHERE r.snap_id = s.id) AS first_report
                    \(Self.listingFrom)WHERE f.class_id = \(classID) AND EXISTS (SELECT 1 FROM reports r WHERE r.snap_id = s.id)
                    ORDER BY first_report, s.id
                    """
                ) { row in
                    ReportedSnap(
                        snapID: UInt64(row.int64("id")), feed: row.string("feed_name"), poster: row.string("poster_name"),
                        postedAt: row.int64("posted_at"), expiresAt: row.int64("expires_at"), pictureKept: row.bool("has_image"),
                        reports: [])
                }
                var reports: [UInt64: [SnapReport]] = [:]
                _ = try sql.query(
                    """
                    SELECT r.snap_id, u.name, r.reason, r.reported_at FROM reports r JOIN users u ON u.id = r.reporter_id
                    WHERE r.snap_id IN (SELECT id FROM snaps WHERE \(Self.snaps(ofClass: classID)))
                    ORDER BY r.snap_id, r.reported_at, \(engine.bytewise(folded("u.name")))
                    """
                ) { row in
                    reports[UInt64(row.int64("snap_id")), default: []].append(
                        SnapReport(reporter: row.string("name"), reason: row.string("reason"), reportedAt: row.int64("reported_at")))
                }
                for index in snaps.indices { snaps[index].reports = reports[snaps[index].snapID] ?? [] }
                return snaps
            }
        }
    }

    package func dismissReports(snapID: Int64, classID: Int64, now: Int64) throws -> Int {
        try translatingErrors("dismissing reports") {
            try sql.transaction {
                let dismissed = try sql.execute(
                    """
                    DELETE FROM reports
                    WHERE snap_id = \(snapID) AND snap_id IN (SELECT id FROM snaps WHERE \(Self.snaps(ofClass: classID)))
                    """)
                guard dismissed > 0 else { throw StoreError(.notFound, "snap \(snapID) has no open report") }
                // What the purge passed by while the snap was reported goes now.
                let erased = try sql.execute(
                    "DELETE FROM snap_images WHERE snap_id = \(snapID) AND snap_id IN (\(expiredUnerasedSnaps(now: now)))")
                if erased > 0 {
                    try sql.execute("UPDATE snaps SET image_erased = \(true) WHERE id = \(snapID)")
                    engine.bytesDeleted()
                }
                return dismissed
            }
        }
    }

    package func isReported(snapID: Int64) throws -> Bool {
        try translatingErrors("looking up reports") {
            try sql.queryFirst("SELECT EXISTS (SELECT 1 FROM reports WHERE snap_id = \(snapID)) AS reported") { $0.bool("reported") }
                ?? false
        }
    }

    package func unsendSnap(id: Int64, posterID: Int64, classID: Int64) throws -> Bool {
        try translatingErrors("unsending a snap") {
            try sql.transaction {
                guard
                    try sql.queryFirst(
                        "SELECT id FROM snaps WHERE id = \(id) AND poster_id = \(posterID) AND \(Self.snaps(ofClass: classID))",
                        { $0.int64("id") }) != nil
                else {
                    throw StoreError(.notFound, "you have no snap \(id)")
                }
                if try isReported(snapID: id) {
                    try sql.execute("UPDATE snaps SET expires_at = posted_at WHERE id = \(id)")
                    return true
                }
                try sql.execute("DELETE FROM snaps WHERE id = \(id)")
                engine.bytesDeleted()
                return false
            }
        }
    }

    package func suspend(userID: Int64, classID: Int64, until: Int64, reason: String, by: String, at: Int64) throws {
        try translatingErrors("suspending") {
            try sql.transaction {
                try sql.execute("DELETE FROM suspensions WHERE user_id = \(userID) AND class_id = \(classID)")
                try sql.execute(
                    """
                    INSERT INTO suspensions (class_id, user_id, until, reason, suspended_by, suspended_at)
                    VALUES (\(classID), \(userID), \(until), \(reason), \(by), \(at))
                    """)
            }
        }
    }

    package func unsuspend(userID: Int64, classID: Int64, now: Int64) throws -> Bool {
        try translatingErrors("ending a suspension") {
            try sql.execute("DELETE FROM suspensions WHERE user_id = \(userID) AND class_id = \(classID) AND until > \(now)") > 0
        }
    }

    package func suspension(userID: Int64, classID: Int64?, now: Int64) throws -> Suspension? {
        try translatingErrors("looking up a suspension") {
            let inClass: SQL = classID.map { " AND class_id = \($0)" } ?? ""
            return try sql.queryFirst(
                """
                SELECT until, reason, suspended_by FROM suspensions WHERE user_id = \(userID)\(inClass) AND until > \(now)
                ORDER BY until DESC LIMIT 1
                """
            ) { row in
                Suspension(until: row.int64("until"), reason: row.string("reason"), by: row.string("suspended_by"))
            }
        }
    }

    /// Snaps whose pictures the admins keep: those with an open report.
    static let reportedSnaps: SQL = "SELECT snap_id FROM reports"
}
