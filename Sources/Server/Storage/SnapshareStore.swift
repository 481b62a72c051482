import Wire
import CommandLineParsing
import SQLite

/// The one interface every storage engine implements (SQLite now, PostgreSQL later).
///
/// Methods are synchronous and throwing; a store instance is used by exactly one thread at a
/// time (`StorageExecutor` owns the threads). Times are milliseconds since the Unix epoch.
/// Names of users and feeds compare case-insensitively (ASCII) for uniqueness and lookup.
/// Every multi-step change runs inside `transaction`, which nests (savepoints), so a caller
/// that batches several changes into one outer transaction (group commit) stays correct.
public protocol SnapshareStore: PinStore, MovieStore {
    // MARK: Accounts
    /// Creates a user; throws `StoreError.conflict` when the name is taken.
    func createUser(name: String, passwordHash: String, isAdmin: Bool, at: Int64) throws -> UserRecord
    func user(named name: String) throws -> UserRecord?
    func user(id: Int64) throws -> UserRecord?
    func setAdmin(userID: Int64, isAdmin: Bool) throws
    func setPasswordHash(userID: Int64, passwordHash: String) throws
    /// Every user with post and view counts, by name.
    func userSummaries() throws -> [UserSummary]

    // MARK: Sessions (only the SHA-256 of a token is ever stored)
    func createSession(userID: Int64, tokenHash: [UInt8], at: Int64, expiresAt: Int64) throws
    /// The user owning an unexpired session, or nil.
    func sessionUser(tokenHash: [UInt8], now: Int64) throws -> UserRecord?
    func deleteSession(tokenHash: [UInt8]) throws
    /// Ends every session of the user except the one with `tokenHash`; returns how many ended.
    func deleteSessions(userID: Int64, keeping tokenHash: [UInt8]?) throws -> Int
    func deleteExpiredSessions(now: Int64) throws -> Int
    /// A number that moves whenever any process ends a session or changes a user's admin
    /// flag or password.
    func accessEpoch() throws -> Int64
    /// For each token hash, whether its session is still live and with which admin right.
    func sessionAccess(tokenHashes: [[UInt8]], now: Int64) throws -> [SessionAccess]

    // MARK: Feeds
    /// Throws `StoreError.conflict` when a feed of that name exists.
    func createFeed(name: String, at: Int64) throws -> FeedRecord
    /// Deletes the feed with its snaps, images and views; `StoreError.notFound` if absent.
    func deleteFeed(named name: String) throws
    func feed(named name: String) throws -> FeedRecord?
    /// Every feed with its live (unexpired) snap count and the viewer's unread count, by name.
    func feedSummaries(viewerID: Int64, now: Int64) throws -> [FeedSummary]

    // MARK: Snaps
    func insertSnap(_ snap: NewSnap) throws -> SnapListing
    /// Live snaps of one feed (or all feeds when nil), newest first, as the viewer sees them.
    /// Never reads image bytes.
    func snapListings(feedID: Int64?, viewerID: Int64, now: Int64) throws -> [SnapListing]
    func snapListing(id: Int64, viewerID: Int64, now: Int64) throws -> SnapListing?
    /// The view-once gate. In one transaction: the snap must exist (`notFound`), not be the
    /// viewer's own (`ownSnap`), not be expired (`expired`); then the (snap, viewer) view row is
    /// inserted, and a primary-key conflict means `alreadyViewed`. Only the winner gets bytes:
    /// `body` runs inside the same transaction with the listing, the SHA-256 and the image (to
    /// copy out), and a throw from it rolls the claim back.
    func claimView<R>(snapID: Int64, viewerID: Int64, now: Int64,
                      _ body: (_ listing: SnapListing, _ sha256: [UInt8], _ image: any StoredBytes) throws -> R) throws -> R
    /// Who opened the snap, first opened first.
    func snapViewers(snapID: Int64) throws -> [SnapViewerRecord]
    /// Removes one user's view of a snap so they may open it once more; `notFound` if no view.
    func restoreView(snapID: Int64, userID: Int64) throws
    /// Deletes one snap with its image and views; `notFound` if absent.
    func deleteSnap(id: Int64) throws
    /// Deletes every snap of one feed; returns how many.
    func resetFeed(id: Int64) throws -> Int
    /// Deletes every snap of every feed; returns how many.
    func resetAllFeeds() throws -> Int
    /// Deletes the image bytes of snaps past their expiry (metadata stays, so opens answer
    /// `expired`); returns how many images were erased.
    func purgeExpired(now: Int64) throws -> Int
    /// Makes deleted bytes unrecoverable from the files (WAL checkpoint and truncate). The
    /// methods that delete image bytes already do this after their commit; this is for doing it
    /// on demand.
    func compact() throws
    /// The size of the largest image stored (snaps, album photos and thumbnails), 0 when none.
    func largestStoredImage() throws -> Int
    /// Named counters for `admin stats`.
    func statistics(now: Int64) throws -> [Statistic]

    /// Runs `body` atomically; nested calls become savepoints.
    func transaction<T>(_ body: () throws -> T) throws -> T
}

/// A live connection's session as storage sees it now.
public struct SessionAccess: Sendable, Equatable {
    public var tokenHash: [UInt8]
    /// The user's admin right, or nil when the session no longer exists (or expired).
    public var isAdmin: Bool?
}

/// A stored account.
public struct UserRecord: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var passwordHash: String
    public var isAdmin: Bool
    public var createdAt: Int64
    public init(id: Int64, name: String, passwordHash: String, isAdmin: Bool, createdAt: Int64) {
        self.id = id; self.name = name; self.passwordHash = passwordHash
        self.isAdmin = isAdmin; self.createdAt = createdAt
    }
}

/// One row of `admin users`.
public struct UserSummary: Sendable, Equatable {
    public var name: String
    public var isAdmin: Bool
    public var createdAt: Int64
    public var postCount: Int64
    public var viewCount: Int64
    public init(name: String, isAdmin: Bool, createdAt: Int64, postCount: Int64, viewCount: Int64) {
        self.name = name; self.isAdmin = isAdmin; self.createdAt = createdAt
        self.postCount = postCount; self.viewCount = viewCount
    }
}

/// A feed as stored.
public struct FeedRecord: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var createdAt: Int64
    public init(id: Int64, name: String, createdAt: Int64) { self.id = id; self.name = name; self.createdAt = createdAt }
}

/// A feed as one viewer sees it.
public struct FeedSummary: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var snapCount: Int64
    public var unreadCount: Int64
    public init(id: Int64, name: String, snapCount: Int64, unreadCount: Int64) {
        self.id = id; self.name = name; self.snapCount = snapCount; self.unreadCount = unreadCount
    }
}

/// How a snap looks to one viewer.
public enum SnapStatus: UInt8, Sendable, Equatable {
    case unread = 0
    case read = 1
    case sent = 2
}

/// The image encodings the server accepts.
public enum StoredImageFormat: UInt8, Sendable, Equatable {
    case png = 1
    case jpeg = 2
}

/// A snap to insert.
public struct NewSnap: Sendable {
    public var feedID: Int64
    public var posterID: Int64
    public var image: [UInt8]
    public var sha256: [UInt8]
    public var format: StoredImageFormat
    public var width: Int
    public var height: Int
    public var postedAt: Int64
    public var expiresAt: Int64
    public init(feedID: Int64, posterID: Int64, image: [UInt8], sha256: [UInt8], format: StoredImageFormat,
                width: Int, height: Int, postedAt: Int64, expiresAt: Int64) {
        self.feedID = feedID; self.posterID = posterID; self.image = image; self.sha256 = sha256
        self.format = format; self.width = width; self.height = height
        self.postedAt = postedAt; self.expiresAt = expiresAt
    }
}

/// A snap's metadata as one viewer sees it; never carries image bytes.
public struct SnapListing: Sendable, Equatable {
    public var id: Int64
    public var feedName: String
    public var posterName: String
    public var postedAt: Int64
    public var expiresAt: Int64
    public var status: SnapStatus
    public var byteCount: Int64
    public var width: Int
    public var height: Int
    public var format: StoredImageFormat
    public var posterID: Int64
    /// How many people opened the snap, counted only when the viewer is its poster (else 0).
    public var openedCount: Int
    public init(id: Int64, feedName: String, posterName: String, postedAt: Int64, expiresAt: Int64,
                status: SnapStatus, byteCount: Int64, width: Int, height: Int, format: StoredImageFormat,
                posterID: Int64 = 0, openedCount: Int = 0) {
        self.id = id; self.feedName = feedName; self.posterName = posterName; self.postedAt = postedAt
        self.expiresAt = expiresAt; self.status = status; self.byteCount = byteCount
        self.width = width; self.height = height; self.format = format
        self.posterID = posterID; self.openedCount = openedCount
    }
}

/// Someone who opened a snap, and when.
public struct SnapViewerRecord: Sendable, Equatable {
    public var name: String
    public var viewedAt: Int64
}

extension SnapshareStore {
    /// The feed of that name; `notFound` when there is none, naming the closest feed when one
    /// is a likely typo ("no feed named Memse; did you mean Memes?").
    public func requireFeed(named name: String) throws -> FeedRecord {
        guard let feed = try feed(named: name) else {
            let names = try feedSummaries(viewerID: 0, now: 0).map(\.name)
            let suggestion = EditDistance.suggestion(ignoringCaseFor: name, among: names).map { "; did you mean \($0)?" } ?? ""
            throw StoreError(.notFound, "no feed named \(name)\(suggestion)")
        }
        return feed
    }

    /// Deletes the snaps of the feed named `name` (`notFound` when there is none), or of every
    /// feed when `name` is nil; returns how many went.
    public func resetFeeds(named name: String?) throws -> Int {
        guard let name else { return try resetAllFeeds() }
        return try resetFeed(id: requireFeed(named: name).id)
    }

    /// `claimView`, with the image copied into an array.
    public func claimView(snapID: Int64, viewerID: Int64, now: Int64) throws -> OpenedSnap {
        try claimView(snapID: snapID, viewerID: viewerID, now: now) { listing, sha256, image in
            OpenedSnap(listing: listing, image: try image.array(), sha256: sha256)
        }
    }
}

/// The result of winning a view claim, with the image as an array (for tests and tools; the
/// server itself copies the image straight into its reply with `claimView(...body:)`).
public struct OpenedSnap: Sendable {
    public var listing: SnapListing
    public var image: [UInt8]
    public var sha256: [UInt8]
    public init(listing: SnapListing, image: [UInt8], sha256: [UInt8]) {
        self.listing = listing; self.image = image; self.sha256 = sha256
    }
}

/// A named counter for `admin stats`.
public struct Statistic: Sendable, Equatable {
    public var name: String
    public var value: Int64
    public init(name: String, value: Int64) { self.name = name; self.value = value }
}

/// Why a storage call failed, in the product's terms.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case notFound, conflict, alreadyViewed, expired, ownSnap, corrupt, unavailable, internalError
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
    public var description: String { "\(kind): \(message)" }
}
