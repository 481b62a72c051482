/// Upkeep of the stored data as a whole: erasing expired images, making deleted bytes
/// unrecoverable, and measuring. Used by the server's purge timer and start-up (the largest
/// image sets the reply ceiling) and by `admin stats`.
public protocol MaintenanceStore: AnyObject {
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
    /// Named counters for `admin stats`, always the same names in the same order.
    func statistics(now: Int64) throws -> [Statistic]
    /// The end of a term, in one transaction: every snap with its picture and views (and every
    /// rejection notice), every session and device token, unless `keepAccounts` every account but
    /// the admins' (with their pins, albums and movies), and unless `keepRoster` the roster.
    /// Feeds, admins and the audit log stay.
    func endTerm(keepAccounts: Bool, keepRoster: Bool) throws -> TermCleared
}

/// What `MaintenanceStore.endTerm` removed.
public struct TermCleared: Sendable, Equatable {
    public var snaps: Int
    public var views: Int
    public var sessions: Int
    public var accounts: Int
    /// Roster entries taken off (0 when it was kept).
    public var rosterEntries: Int
}

/// A named counter for `admin stats`.
public struct Statistic: Sendable, Equatable {
    public var name: String
    public var value: Int64
    public init(name: String, value: Int64) {
        self.name = name
        self.value = value
    }
}
