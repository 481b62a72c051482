import Foundation
import Wire

/// Keeps one feed's listing (or every feed's) current for as long as someone looks at it.
///
/// It polls cheaply, fetches the listing only when the server says something this user can see
/// changed, and drops snaps as they expire (the server moves no version for that: an expiry is
/// a time, which the watcher knows). Nothing here draws: `snapshare feeds --watch` and the app's
/// Feeds screen both render `liveSnaps(now:)` under `feedNames`.
///
/// A value, refreshed with whichever session the caller has: the app refreshes a copy on its
/// network thread and keeps the result on its own.
package struct FeedWatch {
    /// The feed watched; nil for every feed.
    package let feed: String?
    private let wantsFeedNames: Bool
    private var version: UInt64?
    package private(set) var listing = Snaps(version: 0, snaps: [])
    /// The feeds to draw the listing under: the watched one (as the server spells it), or every
    /// feed, empty ones included. Empty unless asked for, since it costs a request.
    package private(set) var feedNames: [String] = []

    package init(feed: String?, wantsFeedNames: Bool) {
        self.feed = feed
        self.wantsFeedNames = wantsFeedNames
    }

    /// Fetches the listing the first time, then only after a poll reports a change; true when a
    /// new listing arrived.
    @discardableResult
    package mutating func refresh(using session: SnapshareSession) throws(ClientError) -> Bool {
        if let version, !(try session.poll(knownVersion: version)).changed { return false }
        let listing = try session.snaps(feed: feed)
        // A feed made or deleted also moves the version, so the names are fetched again too.
        if wantsFeedNames {
            if let feed {
                // Spelled as the server does: from a snap, or from the feed list when it is empty.
                let wanted = feed.trimmingCharacters(in: .whitespaces).lowercased()
                var spelled = listing.snaps.first?.feed
                if spelled == nil { spelled = try session.feeds().map(\.name).first { $0.lowercased() == wanted } }
                feedNames = [spelled ?? feed]
            } else {
                feedNames = try session.feeds().map(\.name)
            }
        }
        // Kept only once everything arrived: after a failure the next refresh asks again.
        self.listing = listing
        version = listing.version
        return true
    }

    /// Whether a listing has arrived yet.
    var hasListing: Bool { version != nil }

    /// Marks a snap this user just opened as read, before the next listing says so.
    mutating func markRead(_ id: UInt64) {
        guard let index = listing.snaps.firstIndex(where: { $0.id == id }) else { return }
        listing.snaps[index].state = .read
    }

    /// Drops a snap the user just unsent (the next listing agrees).
    mutating func forget(_ id: UInt64) {
        listing.snaps.removeAll { $0.id == id }
    }

    /// The listed snaps not yet expired at `now` (the server's clock, in milliseconds).
    package func liveSnaps(now: Int64) -> [SnapInfo] {
        listing.snaps.filter { $0.expiresAt > now }
    }
}
