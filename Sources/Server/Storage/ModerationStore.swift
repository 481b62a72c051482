import Wire

/// Reports and suspensions. A snap with an open report keeps its picture for the admins: the
/// expiry purge passes it by, and a feed reset or its poster's unsend only ends it (it leaves
/// every listing) until an admin resolves the report.
package protocol ModerationStore: AnyObject {
    /// Records one user's report of a snap; `conflict` when they reported it already.
    func addReport(snapID: Int64, reporterID: Int64, reason: String, at: Int64) throws
    /// Every snap of the class with open reports, the one reported first first, each with its
    /// reports oldest first.
    func openReports(classID: Int64) throws -> [ReportedSnap]
    /// Removes the reports of one snap of the class (`notFound` when it has none); a snap already
    /// past its expiry then has its picture erased at once. Returns how many reports went.
    func dismissReports(snapID: Int64, classID: Int64, now: Int64) throws -> Int
    /// Whether the snap has an open report.
    func isReported(snapID: Int64) throws -> Bool
    /// The poster's taking back of their snap: deleted with its picture and views, or, while it
    /// is reported, ended at once and kept for the admins. `notFound` when there is no such snap
    /// of theirs. Returns true when it was kept.
    func unsendSnap(id: Int64, posterID: Int64, classID: Int64) throws -> Bool
    /// Suspends a user in a class until `until` (replacing any suspension they have there).
    func suspend(userID: Int64, classID: Int64, until: Int64, reason: String, by: String, at: Int64) throws
    /// Ends a user's suspension in a class; false when they had none in force there at `now`.
    func unsuspend(userID: Int64, classID: Int64, now: Int64) throws -> Bool
    /// The user's suspension in force at `now` in the class (the one ending last in any class
    /// when nil: for what is the account's own, such as dropping pins), or nil.
    func suspension(userID: Int64, classID: Int64?, now: Int64) throws -> Suspension?
}

/// A suspension in force: until when, why, and who decided it.
package struct Suspension: Sendable, Equatable {
    var until: Int64
    var reason: String
    var by: String
}
