/// Upkeep of the stored data as a whole: erasing expired images, making deleted bytes
/// unrecoverable, and measuring. Used by the server's purge timer and start-up (the largest
/// image sets the reply ceiling) and by `admin stats`.
package protocol MaintenanceStore: AnyObject {
    /// Deletes the image bytes of snaps past their expiry (metadata stays, so opens answer
    /// `expired`) and the rejection notices past theirs; returns how many images were erased.
    func purgeExpired(now: Int64) throws -> Int
    /// Makes deleted bytes unrecoverable from the files (in SQLite, a WAL checkpoint and
    /// truncate). The methods that delete image bytes already do this after their commit; this
    /// is for doing it on demand. Inside a transaction it happens right after the commit.
    func compact() throws
    /// The size of the largest image stored (snaps, album photos and thumbnails), 0 when none.
    func largestStoredImage() throws -> Int
    /// Runs the most trivial query, for health checks: throws when the database does not answer.
    func answers() throws
    /// Named counters for `admin stats`, always the same names in the same order: of one class
    /// (its members and its staff as `admins`, the site admins among both, its feeds and what is
    /// in them) or, when nil, of the
    /// whole server; the database's size and the sessions are the server's either way.
    func statistics(now: Int64, classID: Int64?) throws -> [Statistic]
    /// The end of a term, in one transaction: every snap with its picture and views (and every
    /// rejection notice), every session and device token, unless `keepAccounts` every account but
    /// the admins' (with their pins, albums and movies), and unless `keepRoster` the roster.
    /// Feeds, admins and the audit log stay.
    func endTerm(keepAccounts: Bool, keepRoster: Bool) throws -> TermCleared
}

/// What `MaintenanceStore.endTerm` removed.
package struct TermCleared: Sendable, Equatable {
    var snaps: Int
    var views: Int
    var sessions: Int
    var accounts: Int
    /// Roster entries taken off (0 when it was kept).
    var rosterEntries: Int
}

/// A named counter for `admin stats`.
package struct Statistic: Sendable, Equatable {
    package var name: String
    var value: Int64
}
