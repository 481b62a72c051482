import CommandLineParsing

/// Feeds: creating, finding, listing with counts, emptying and deleting them. Used by the snap
/// handlers (listing, posting into a feed by name), the admin handlers and `reset-feeds`.
///
/// Names compare case-insensitively (ASCII) for uniqueness and lookup. A new store starts with
/// the feeds `Memes`, `Dog Spots` and `Random`; once deleted they stay deleted.
package protocol FeedStore: AnyObject {
    /// Throws `StoreError.conflict` when a feed of that name exists.
    func createFeed(name: String, at: Int64) throws -> FeedRecord
    /// Deletes the feed with its snaps, images and views; `StoreError.notFound` if absent.
    func deleteFeed(named name: String) throws
    /// The feed with that name (in any case), or nil.
    func feed(named name: String) throws -> FeedRecord?
    /// Every feed with its live (unexpired) snap count and the viewer's unread count, by name.
    func feedSummaries(viewerID: Int64, now: Int64) throws -> [FeedSummary]
    /// Deletes every snap of one feed with their images and views; returns how many.
    func resetFeed(id: Int64) throws -> Int
    /// Deletes every snap of every feed with their images and views; returns how many.
    func resetAllFeeds() throws -> Int
}

extension FeedStore {
    /// The feed of that name; `notFound` when there is none, naming the closest feed when one
    /// is a likely typo ("no feed named Memse; did you mean Memes?").
    package func requireFeed(named name: String) throws -> FeedRecord {
        guard let feed = try feed(named: name) else {
            let names = try feedSummaries(viewerID: 0, now: 0).map(\.name)
            let suggestion = EditDistance.suggestion(ignoringCaseFor: name, among: names).map { "; did you mean \($0)?" } ?? ""
            throw StoreError(.notFound, "no feed named \(name)\(suggestion)")
        }
        return feed
    }

    /// Deletes the snaps of the feed named `name` (`notFound` when there is none), or of every
    /// feed when `name` is nil; returns how many went.
    func resetFeeds(named name: String?) throws -> Int {
        guard let name else { return try resetAllFeeds() }
        return try resetFeed(id: requireFeed(named: name).id)
    }
}

/// A feed as stored.
package struct FeedRecord: Sendable, Equatable {
    package var id: Int64
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
