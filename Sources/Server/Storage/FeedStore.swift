import CommandLineParsing

/// Feeds: creating, finding, listing with counts, emptying and deleting them. Used by the snap
/// handlers (listing, posting into a feed by name), the admin handlers and `reset-feeds`.
///
/// A feed is of one class, and every call names the class it acts in: a feed of another class
/// is not there for it. Names compare case-insensitively (ASCII) for uniqueness and lookup,
/// within a class. A class starts with the feeds `Memes`, `Dog Spots` and `Random`; once
/// deleted they stay deleted.
package protocol FeedStore: AnyObject {
    /// Throws `StoreError.conflict` when the class has a feed of that name.
    func createFeed(name: String, classID: Int64, at: Int64) throws -> FeedRecord
    /// Deletes the class's feed with its snaps, images and views; `StoreError.notFound` if absent.
    func deleteFeed(named name: String, classID: Int64) throws
    /// The class's feed with that name (in any case), or nil.
    func feed(named name: String, classID: Int64) throws -> FeedRecord?
    /// Every feed of the class with its live (unexpired) snap count and the viewer's unread
    /// count, by name.
    func feedSummaries(classID: Int64, viewerID: Int64, now: Int64) throws -> [FeedSummary]
    /// Deletes every snap of one feed with their images and views; returns how many.
    func resetFeed(id: Int64) throws -> Int
    /// Deletes every snap of every feed of the class (of every class when nil) with their
    /// images and views; returns how many.
    func resetAllFeeds(classID: Int64?) throws -> Int
}

extension FeedStore {
    /// The feed of that name; `notFound` when there is none, naming the closest feed when one
    /// is a likely typo ("no feed named Memse; did you mean Memes?").
    package func requireFeed(named name: String, classID: Int64) throws -> FeedRecord {
        guard let feed = try feed(named: name, classID: classID) else {
            let names = try feedSummaries(classID: classID, viewerID: 0, now: 0).map(\.name)
            let suggestion = EditDistance.suggestion(ignoringCaseFor: name, among: names).map { "; did you mean \($0)?" } ?? ""
            throw StoreError(.notFound, "no feed named \(name)\(suggestion)")
        }
        return feed
    }

    /// Deletes the snaps of the class's feed named `name` (`notFound` when there is none), or of
    /// every feed of the class when `name` is nil; returns how many went.
    package func resetFeeds(named name: String?, classID: Int64) throws -> Int {
        guard let name else { return try resetAllFeeds(classID: classID) }
        return try resetFeed(id: requireFeed(named: name, classID: classID).id)
    }
}

/// A feed as stored.
package struct FeedRecord: Sendable, Equatable {
    package var id: Int64
    package var classID: Int64
    package var name: String
    var createdAt: Int64
}

/// A feed as one viewer sees it.
package struct FeedSummary: Sendable, Equatable {
    package var id: Int64
    package var name: String
    var snapCount: Int64
    var unreadCount: Int64
}
