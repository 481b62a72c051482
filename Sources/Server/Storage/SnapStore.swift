import SQL
import Wire

/// Snaps: posting, listing as each viewer sees them, the view-once claim, who opened a snap,
/// restoring a view and deleting a snap. Used by the snap handlers, the image replies (the
/// claim) and the admin handlers.
///
/// A snap is of its feed's class. Every call that finds a snap by id names the class it acts in,
/// and a snap of another class is `notFound` there, as if it did not exist.
///
/// Listings never read image bytes; only a won claim hands them out.
package protocol SnapStore: AnyObject {
    /// Stores a snap with its image and returns it as its poster sees it; `StoreError.notFound`
    /// when the feed or the poster does not exist.
    func insertSnap(_ snap: NewSnap) throws -> SnapListing
    /// Live snaps of one feed (or all the class's feeds when nil), newest first, as the viewer
    /// sees them. Never reads image bytes.
    func snapListings(classID: Int64, feedID: Int64?, viewerID: Int64, now: Int64) throws -> [SnapListing]
    /// One snap as the viewer sees it, expired ones included (so callers can tell `expired`
    /// from `notFound`), or nil.
    func snapListing(id: Int64, classID: Int64, viewerID: Int64, now: Int64) throws -> SnapListing?
    /// The view-once gate. In one transaction: the snap must exist (`notFound`), not be the
    /// viewer's own (`ownSnap`), not be expired (`expired`); then the (snap, viewer) view row is
    /// inserted, and a primary-key conflict means `alreadyViewed`. Only the winner gets bytes:
    /// `body` runs inside the same transaction with the listing, the SHA-256 and the image (to
    /// copy out), and a throw from it rolls the claim back.
    func claimView<R>(
        snapID: Int64, classID: Int64, viewerID: Int64, now: Int64,
        _ body: (_ listing: SnapListing, _ sha256: [UInt8], _ image: any StoredBytes) throws -> R
    ) throws -> R
    /// Who opened the snap, first opened first.
    func snapViewers(snapID: Int64) throws -> [SnapViewerRecord]
    /// Removes one user's view of a snap so they may open it once more; `notFound` if no view.
    func restoreView(snapID: Int64, classID: Int64, userID: Int64) throws
    /// Deletes one snap of the class with its image and views; `notFound` if absent.
    func deleteSnap(id: Int64, classID: Int64) throws
    /// How many snaps of the class (of every class when nil) were posted before `postedBefore`
    /// (Unix milliseconds), expired ones included.
    func countSnaps(postedBefore: Int64, classID: Int64?) throws -> Int
    /// Deletes every snap of the class (of every class when nil) posted before `postedBefore`
    /// with its image and views; returns how many.
    func deleteSnaps(postedBefore: Int64, classID: Int64?) throws -> Int
    /// A page of every stored snap for an export (those awaiting approval only with
    /// `includePending`), lowest id first after `afterID`, at most `limit`, with who opened each
    /// and how many open reports each has; and how many such snaps are stored in all.
    func exportedSnaps(classID: Int64?, afterID: Int64, limit: Int, includePending: Bool) throws -> (total: Int, snaps: [ExportedSnap])
    /// One snap's picture for an admin, whatever its state, without a view: `body` runs with the
    /// listing (its state `read`), the SHA-256 and the image. `notFound` if no such snap, `expired`
    /// once its picture is erased.
    func withSnapPicture<R>(
        id: Int64, classID: Int64, _ body: (_ listing: SnapListing, _ sha256: [UInt8], _ image: any StoredBytes) throws -> R
    ) throws
        -> R
    /// What `posterID` has posted in the class since `since` (snaps an admin rejected included,
    /// unsent ones not) and has stored there now, for the class's posting quota. Inside the
    /// post's transaction, after `lockUser`, so posts racing on other instances count too.
    func postingUsage(posterID: Int64, classID: Int64, since: Int64) throws -> PostingUsage
    /// The class's snaps awaiting approval, the longest waiting first, as an export describes them.
    func snapsAwaitingApproval(classID: Int64) throws -> [ExportedSnap]
    /// Approves a snap of the class awaiting approval (everyone sees it from now on); `notFound`
    /// when none waits.
    func approveSnap(id: Int64, classID: Int64) throws
    /// Rejects a snap awaiting approval: it is deleted with its picture and views, and a notice
    /// with `reason` (possibly empty) is left for its poster until it expires or they dismiss it.
    /// Returns the poster's id; `notFound` when the snap is not awaiting approval.
    func rejectSnap(id: Int64, classID: Int64, reason: String, at: Int64) throws -> Int64
    /// The poster's rejection notices not yet expired, of one feed (or every feed of the class
    /// when nil), newest first, as listings with state `rejected` and the reason as their note.
    func rejectedSnaps(posterID: Int64, classID: Int64, feedID: Int64?, now: Int64) throws -> [SnapListing]
    /// Removes one of the poster's rejection notices; false when they have none with that id.
    func dismissRejection(id: Int64, posterID: Int64, classID: Int64) throws -> Bool
    /// Gives every snap not yet expired, in the classes that keep the server's snap lifetime, the
    /// lifetime `milliseconds` from when it was posted (a shorter `--snap-ttl` applies at once, a
    /// longer one to snaps still live); returns how many changed.
    func applySnapLifetime(milliseconds: Int64, now: Int64) throws -> Int
}

/// A student's posts in the quota's window and pictures stored (`SnapStore.postingUsage`).
package struct PostingUsage: Sendable, Equatable {
    /// Posts since the window's start, and when the oldest of them was posted.
    var recentPosts: Int
    var oldestRecentPost: Int64?
    /// Bytes of the pictures not yet erased, and when the first of them expires.
    var storedBytes: Int64
    var nextExpiry: Int64?
}

extension SnapStore {
    /// `withSnapPicture`, with the image copied into an array.
    package func snapPicture(id: Int64, classID: Int64) throws -> [UInt8] {
        try withSnapPicture(id: id, classID: classID) { _, _, image in try image.array() }
    }

    /// `claimView`, with the image copied into an array.
    package func claimView(snapID: Int64, classID: Int64, viewerID: Int64, now: Int64) throws -> OpenedSnap {
        try claimView(snapID: snapID, classID: classID, viewerID: viewerID, now: now) { listing, sha256, image in
            OpenedSnap(listing: listing, image: try image.array(), sha256: sha256)
        }
    }
}

/// A snap to insert.
package struct NewSnap: Sendable {
    package var feedID: Int64
    package var posterID: Int64
    package var image: [UInt8]
    package var sha256: [UInt8]
    package var format: ImageFormat
    package var width: Int
    package var height: Int
    package var postedAt: Int64
    package var expiresAt: Int64
    /// Waits for an admin's approval before anyone but its poster sees it.
    var awaitingApproval: Bool
    package init(
        feedID: Int64, posterID: Int64, image: [UInt8], sha256: [UInt8], format: ImageFormat,
        width: Int, height: Int, postedAt: Int64, expiresAt: Int64, awaitingApproval: Bool = false
    ) {
        self.feedID = feedID
        self.posterID = posterID
        self.image = image
        self.sha256 = sha256
        self.format = format
        self.width = width
        self.height = height
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.awaitingApproval = awaitingApproval
    }
}

/// A snap's metadata as one viewer sees it; never carries image bytes.
package struct SnapListing: Sendable, Equatable {
    package var id: Int64
    var feedName: String
    var posterName: String
    var postedAt: Int64
    var expiresAt: Int64
    var status: SnapState
    var byteCount: Int64
    var width: Int
    var height: Int
    var format: ImageFormat
    var posterID: Int64
    /// How many people opened the snap, counted only when the viewer is its poster (else 0).
    var openedCount: Int
    /// A rejected snap's reason (empty otherwise).
    var note: String
    init(
        id: Int64, feedName: String, posterName: String, postedAt: Int64, expiresAt: Int64,
        status: SnapState, byteCount: Int64, width: Int, height: Int, format: ImageFormat,
        posterID: Int64 = 0, openedCount: Int = 0, note: String = ""
    ) {
        self.id = id
        self.feedName = feedName
        self.posterName = posterName
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.status = status
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.format = format
        self.posterID = posterID
        self.openedCount = openedCount
        self.note = note
    }
}

/// Someone who opened a snap, and when.
package struct SnapViewerRecord: Sendable, Equatable {
    package var name: String
    var viewedAt: Int64
}

/// The result of winning a view claim, with the image as an array (for tests and tools; the
/// server itself copies the image straight into its reply with `claimView(...body:)`).
package struct OpenedSnap: Sendable {
    var listing: SnapListing
    var image: [UInt8]
    var sha256: [UInt8]
}
