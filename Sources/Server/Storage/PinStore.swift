import SQL
import Wire

/// Pins with their albums and photos: dropping and listing pins, the album download's
/// bookkeeping, and the photos' bytes. Used by the pin handlers, the image replies and the
/// album lifecycle (`Albums`).
///
/// Every pin belongs to one user; its album and photos go with it. Methods that take a `userID`
/// answer only for that user's pins and photos: another user's id behaves exactly like an id
/// that does not exist (nil or `notFound`), so ids leak nothing. Methods without a `userID` are
/// for the album worker. A latitude outside -90...90 or a longitude outside -180...180 is refused.
package protocol PinStore: AnyObject {
    // MARK: Pins
    /// Inserts a pin with its album in state downloading, not yet searched, at `firstPage`.
    func insertPin(_ pin: NewPin) throws -> PinRecord
    /// How many pins the user has.
    func pinCount(userID: Int64) throws -> Int
    /// The user's pins, oldest first, with their album summaries.
    func pins(userID: Int64) throws -> [PinRecord]
    /// One of the user's pins, or nil.
    func pin(id: Int64, userID: Int64) throws -> PinRecord?
    /// The user's pin at `offset` (0-based, oldest first): with `pinCount`, a uniform random pick.
    func pin(atOffset offset: Int, userID: Int64) throws -> PinRecord?
    /// Takes or renews the download lease of `pinID`'s album for `owner` until `until`: true when
    /// the album is downloading and its lease was free, expired at `now`, or already `owner`'s.
    func claimAlbumLease(pinID: Int64, owner: String, now: Int64, until: Int64) throws -> Bool
    /// Albums still downloading whose lease ran out at `now` (their instance stopped or died).
    func albumsWithExpiredLeases(now: Int64) throws -> [Int64]
    /// Deletes one of the user's pins with its album, photos and bytes; `notFound` otherwise.
    func deletePin(id: Int64, userID: Int64) throws

    // MARK: Albums
    /// The album of one of the user's pins with every photo slot in order, or nil.
    func album(pinID: Int64, userID: Int64) throws -> AlbumRecord?
    /// The album of a pin whoever owns it (the worker), or nil once the pin is gone.
    func albumForDownload(pinID: Int64) throws -> AlbumRecord?
    /// Inside a transaction: holds the album's row until it ends, so its state checked after it
    /// (New Collection refuses a downloading album) still holds at the commit, on every instance.
    func lockAlbum(pinID: Int64) throws
    /// Pins whose albums are still downloading (to resume at server start), oldest first.
    func downloadingAlbumPins() throws -> [Int64]
    /// Records a search's answer for the album's current collection: one placeholder per photo
    /// (state downloading), or state empty when there are none. Returns false, changing nothing,
    /// when the album is gone, already searched, or at another `generation`.
    func recordSearch(_ search: AlbumSearch) throws -> Bool
    /// Ends an album with state failed and `message` (a search that failed, a provider that
    /// changed); only while it is downloading at `generation`. Returns false otherwise.
    func failAlbum(pinID: Int64, generation: Int64, message: String, at: Int64) throws -> Bool
    /// Empties the album and starts a new collection at `page` (state downloading, not yet
    /// searched, next generation, error cleared). The caller checks the album is not busy.
    func restartAlbum(pinID: Int64, page: Int, provider: String, perPage: Int, at: Int64) throws
    /// Stores a fetched photo's bytes and thumbnail and marks it ready; false (nothing stored)
    /// when the slot is gone or no longer pending. Completes the album when it was the last.
    func storePhotoImage(_ image: FetchedPhoto, at: Int64) throws -> Bool
    /// Marks a pending photo failed with `message`; completes the album when it was the last.
    func failPhoto(id: Int64, message: String, at: Int64) throws -> Bool
    /// Moves a downloading album with no pending photo left to ready (any photo ready, or none
    /// left at all) or failed (every remaining photo failed). Returns true when it changed it.
    func completeAlbumIfDone(pinID: Int64, at: Int64) throws -> Bool

    // MARK: Photos
    /// One photo of the user's pins, or nil.
    func photo(id: Int64, userID: Int64) throws -> PhotoRecord?
    /// Runs `body` with one of the user's photos, the SHA-256 of the variant asked for and its
    /// stored bytes (copied out by `body`, straight into its own memory). One consistent
    /// snapshot throughout; `notFound` saying why when there is no such photo or it has no
    /// bytes (still downloading, or failed with the source's reason).
    func withPhotoBytes<R>(
        id: Int64, userID: Int64, thumbnail: Bool,
        _ body: (_ photo: PhotoRecord, _ sha256: [UInt8], _ bytes: any StoredBytes) throws -> R
    ) throws -> R
    /// Deletes one photo of the user's pins with its bytes; `notFound` otherwise. A pending
    /// photo's fetch is thereby cancelled (its result finds no slot); the album completes when
    /// it was the last pending one.
    func deletePhoto(id: Int64, userID: Int64, at: Int64) throws
    /// How many ready photos a pin has.
    func readyPhotoCount(pinID: Int64) throws -> Int
    /// The pin's ready photo at `offset` in album order: with `readyPhotoCount`, a random pick.
    func readyPhoto(pinID: Int64, atOffset offset: Int) throws -> PhotoRecord?
}

/// A pin to insert, with where its album starts.
package struct NewPin: Sendable {
    package var userID: Int64
    package var latitude: Double
    package var longitude: Double
    package var createdAt: Int64
    /// The photo source's name (`builtin`, `flickr`, ...): an album is only ever resumed from it.
    package var provider: String
    package var perPage: Int
    var firstPage: Int
    package init(userID: Int64, latitude: Double, longitude: Double, createdAt: Int64, provider: String, perPage: Int, firstPage: Int = 1) {
        self.userID = userID
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.provider = provider
        self.perPage = perPage
        self.firstPage = firstPage
    }
}

/// A pin with the summary of its album.
package struct PinRecord: Sendable, Equatable {
    package var id: Int64
    var userID: Int64
    var latitude: Double
    var longitude: Double
    var createdAt: Int64
    var albumState: AlbumState
    /// Photo slots of the current collection (placeholders included).
    var expected: Int
    /// Slots no longer pending (ready or failed).
    var done: Int
}

/// An album: its state, its download bookkeeping, and its photo slots in order.
package struct AlbumRecord: Sendable, Equatable {
    /// The pin, whose summary already carries the album's state and counts.
    var pin: PinRecord
    var state: AlbumState { pin.albumState }
    /// Why the album failed; empty otherwise.
    var error: String
    /// The photo source the current collection comes from.
    var provider: String
    /// False until the current collection's search has answered.
    var searched: Bool
    /// The page asked for (before the search) or answered (after it).
    var page: Int
    /// Pages the last search reported (0 when it found nothing or has not answered).
    var pages: Int
    var perPage: Int
    var total: Int
    var generation: Int64
    var photos: [PhotoRecord]
    init(
        pin: PinRecord, error: String, provider: String, searched: Bool, page: Int,
        pages: Int, perPage: Int, total: Int, generation: Int64, photos: [PhotoRecord]
    ) {
        self.pin = pin
        self.error = error
        self.provider = provider
        self.searched = searched
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.total = total
        self.generation = generation
        self.photos = photos
    }
}

/// One photo slot: what its source said about it, and how far its download got.
package struct PhotoRecord: Sendable, Equatable {
    package var id: Int64
    var pinID: Int64
    var position: Int
    var state: PhotoState
    /// The photo as its source described it (text cleaned, a missing place named, a missing
    /// position taken from the pin), with the source's handle on the bytes.
    var source: ProviderPhoto
    var width: Int
    var height: Int
    var byteCount: Int
    /// Why a failed photo failed; empty otherwise.
    var error: String
}

/// A search's answer for one album collection.
package struct AlbumSearch: Sendable {
    var pinID: Int64
    /// The collection the search was made for; a newer one makes the answer stale.
    var generation: Int64
    var page: Int
    var pages: Int
    var total: Int
    /// One placeholder each, in this order; empty means "No Images".
    var slots: [ProviderPhoto]
    var at: Int64
}

/// A photo's fetched bytes with their thumbnail, ready to store.
package struct FetchedPhoto: Sendable {
    var photoID: Int64
    var image: [UInt8]
    var imageSHA256: [UInt8]
    var thumbnail: [UInt8]
    var thumbnailSHA256: [UInt8]
    var width: Int
    var height: Int
}

extension PinStore {
    /// The stored bytes of one of the user's photos as an array (nil when there is no such photo
    /// or it has no bytes: pending or failed).
    func photoBytes(id: Int64, userID: Int64, thumbnail: Bool) throws -> StoredPhotoBytes? {
        do {
            return try withPhotoBytes(id: id, userID: userID, thumbnail: thumbnail) { photo, sha256, bytes in
                StoredPhotoBytes(photo: photo, sha256: sha256, bytes: try bytes.array())
            }
        } catch let error as StoreError where error.kind == .notFound {
            return nil
        }
    }
}

/// Stored image bytes with their SHA-256 and the photo they belong to.
struct StoredPhotoBytes: Sendable {
    var photo: PhotoRecord
    var sha256: [UInt8]
    var bytes: [UInt8]
}
