import SQL
import Server
import Wire

/// The store's calls as they were before a server held several classes, acting in its first
/// class (the one every new store starts with): for the tests of everything that is not about
/// classes. Only test code sees these; the server names the class in every call.
extension SnapshareStore {
    /// The id of the store's first class.
    package func firstClassID() throws -> Int64 {
        guard let first = try firstClass() else { throw NoClass() }
        return first.id
    }

    // MARK: Feeds

    package func createFeed(name: String, at: Int64) throws -> FeedRecord {
        try createFeed(name: name, classID: firstClassID(), at: at)
    }
    package func deleteFeed(named name: String) throws { try deleteFeed(named: name, classID: firstClassID()) }
    package func feed(named name: String) throws -> FeedRecord? { try feed(named: name, classID: firstClassID()) }
    package func feedSummaries(viewerID: Int64, now: Int64) throws -> [FeedSummary] {
        try feedSummaries(classID: firstClassID(), viewerID: viewerID, now: now)
    }
    package func resetAllFeeds() throws -> Int { try resetAllFeeds(classID: firstClassID()) }
    package func requireFeed(named name: String) throws -> FeedRecord { try requireFeed(named: name, classID: firstClassID()) }
    package func resetFeeds(named name: String?) throws -> Int { try resetFeeds(named: name, classID: firstClassID()) }

    // MARK: Snaps

    package func snapListings(feedID: Int64?, viewerID: Int64, now: Int64) throws -> [SnapListing] {
        try snapListings(classID: firstClassID(), feedID: feedID, viewerID: viewerID, now: now)
    }
    package func snapListing(id: Int64, viewerID: Int64, now: Int64) throws -> SnapListing? {
        try snapListing(id: id, classID: firstClassID(), viewerID: viewerID, now: now)
    }
    package func claimView<R>(
        snapID: Int64, viewerID: Int64, now: Int64, _ body: (SnapListing, [UInt8], any StoredBytes) throws -> R
    ) throws -> R {
        let classID = try firstClassID()
        return try withoutActuallyEscaping(body) { body in
            try claimView(snapID: snapID, classID: classID, viewerID: viewerID, now: now, body)
        }
    }
    package func claimView(snapID: Int64, viewerID: Int64, now: Int64) throws -> OpenedSnap {
        try claimView(snapID: snapID, classID: firstClassID(), viewerID: viewerID, now: now)
    }
    package func restoreView(snapID: Int64, userID: Int64) throws {
        try restoreView(snapID: snapID, classID: firstClassID(), userID: userID)
    }
    package func deleteSnap(id: Int64) throws { try deleteSnap(id: id, classID: firstClassID()) }
    package func countSnaps(postedBefore: Int64) throws -> Int { try countSnaps(postedBefore: postedBefore, classID: nil) }
    package func deleteSnaps(postedBefore: Int64) throws -> Int { try deleteSnaps(postedBefore: postedBefore, classID: nil) }
    package func exportedSnaps(afterID: Int64, limit: Int, includePending: Bool) throws -> (total: Int, snaps: [ExportedSnap]) {
        try exportedSnaps(classID: firstClassID(), afterID: afterID, limit: limit, includePending: includePending)
    }
    package func snapPicture(id: Int64) throws -> [UInt8] { try snapPicture(id: id, classID: firstClassID()) }
    package func postingUsage(posterID: Int64, since: Int64) throws -> PostingUsage {
        try postingUsage(posterID: posterID, classID: firstClassID(), since: since)
    }
    package func snapsAwaitingApproval() throws -> [ExportedSnap] { try snapsAwaitingApproval(classID: firstClassID()) }
    package func approveSnap(id: Int64) throws { try approveSnap(id: id, classID: firstClassID()) }
    package func rejectSnap(id: Int64, reason: String, at: Int64) throws -> Int64 {
        try rejectSnap(id: id, classID: firstClassID(), reason: reason, at: at)
    }
    package func rejectedSnaps(posterID: Int64, feedID: Int64?, now: Int64) throws -> [SnapListing] {
        try rejectedSnaps(posterID: posterID, classID: firstClassID(), feedID: feedID, now: now)
    }

    // MARK: Moderation

    package func openReports() throws -> [ReportedSnap] { try openReports(classID: firstClassID()) }
    package func dismissReports(snapID: Int64, now: Int64) throws -> Int {
        try dismissReports(snapID: snapID, classID: firstClassID(), now: now)
    }
    package func suspend(userID: Int64, until: Int64, reason: String, by: String, at: Int64) throws {
        try suspend(userID: userID, classID: firstClassID(), until: until, reason: reason, by: by, at: at)
    }
    package func unsuspend(userID: Int64, now: Int64) throws -> Bool { try unsuspend(userID: userID, classID: firstClassID(), now: now) }
    package func suspension(userID: Int64, now: Int64) throws -> Suspension? {
        try suspension(userID: userID, classID: firstClassID(), now: now)
    }

    // MARK: The roster, the users and the audit log

    @discardableResult
    package func putRosterEntry(_ entry: RosterEntry) throws -> RosterPut { try putRosterEntry(entry, classID: firstClassID()) }
    package func rosterEntry(named name: String) throws -> RosterEntry? { try rosterEntry(named: name, classID: firstClassID()) }
    package func rosterMembers() throws -> [RosterMemberRecord] { try rosterMembers(classID: firstClassID()) }
    @discardableResult
    package func removeRosterEntry(named name: String) throws -> RosterMemberRecord {
        try removeRosterEntry(named: name, classID: firstClassID())
    }
    package func statistics(now: Int64) throws -> [Statistic] { try statistics(now: now, classID: nil) }
    package func clearRoster() throws -> Int { try clearRoster(classID: nil) }
    package func userSummaries(now: Int64) throws -> [UserSummary] { try userSummaries(classID: nil, now: now) }
    package func recordAudit(_ entry: AuditRecord) throws { try recordAudit(entry, classID: nil) }
    package func auditEntries(since: Int64, limit: Int) throws -> [AuditRecord] {
        try auditEntries(since: since, limit: limit, classID: nil)
    }
}

/// A store without a class: none of the tests' stores.
private struct NoClass: Error {}
