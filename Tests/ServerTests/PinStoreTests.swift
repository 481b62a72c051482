import Foundation
import Testing
@testable import Server

/// Two users with a pin each, the cast of the pin store tests.
struct PinFixture {
    let store: SQLiteStore
    let alice: UserRecord
    let bob: UserRecord

    init(path: String) throws {
        store = try SQLiteStore(path: path)
        alice = try store.createUser(name: "alice", passwordHash: "h", isAdmin: false, at: 1)
        bob = try store.createUser(name: "bob", passwordHash: "h", isAdmin: false, at: 2)
    }

    @discardableResult
    func dropPin(_ user: UserRecord, latitude: Double = 42.28, longitude: Double = -83.74, at: Int64 = 10) throws -> PinRecord {
        try store.insertPin(NewPin(userID: user.id, latitude: latitude, longitude: longitude, createdAt: at,
                                   provider: "builtin", perPage: 21))
    }

    static func slots(_ count: Int) -> [PhotoSlot] {
        (0..<count).map {
            PhotoSlot(providerPhotoID: "p\($0)", reference: "ref-\($0)", title: "Photo \($0)", tags: "cat tree",
                      place: "Ann Arbor, Michigan, United States", latitude: 42.28, longitude: -83.74)
        }
    }

    /// Records a search answer of `count` photos for the pin's current collection.
    @discardableResult
    func answerSearch(_ pin: PinRecord, count: Int, page: Int = 1, pages: Int = 5) throws -> AlbumRecord {
        let album = try #require(try store.albumForDownload(pinID: pin.id))
        #expect(try store.recordSearch(AlbumSearch(pinID: pin.id, generation: album.generation, page: page, pages: pages,
                                                   total: pages * 21, slots: Self.slots(count), at: 20)))
        return try #require(try store.albumForDownload(pinID: pin.id))
    }

    func fetched(_ photo: PhotoRecord, bytes: [UInt8] = [1, 2, 3]) -> FetchedPhoto {
        FetchedPhoto(photoID: photo.id, image: bytes, imageSHA256: [UInt8](repeating: 0xAA, count: 32), thumbnail: [9],
                     thumbnailSHA256: [UInt8](repeating: 0xBB, count: 32), width: 160, height: 120)
    }

    func count(_ table: String) throws -> Int64 { try store.database.scalar("SELECT count(*) FROM \(table)") }
}

@Suite("Pin store")
struct PinStoreTests {
    @Test("a dropped pin starts with its album downloading and not yet searched")
    func newPinStartsDownloading() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            #expect(pin.albumState == .downloading && pin.expected == 0 && pin.done == 0)
            let album = try #require(try fixture.store.album(pinID: pin.id, userID: fixture.alice.id))
            #expect(!album.searched && album.page == 1 && album.perPage == 21 && album.provider == "builtin" && album.photos.isEmpty)
            #expect(try fixture.store.downloadingAlbumPins() == [pin.id])
        }
    }

    @Test("pins are listed oldest first and only to their owner")
    func pinsAreListedToTheirOwner() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let first = try fixture.dropPin(fixture.alice, latitude: 1, longitude: 2)
            _ = try fixture.dropPin(fixture.bob)
            let second = try fixture.dropPin(fixture.alice, latitude: -3, longitude: -4)
            #expect(try fixture.store.pins(userID: fixture.alice.id).map(\.id) == [first.id, second.id])
            #expect(try fixture.store.pinCount(userID: fixture.alice.id) == 2)
            #expect(try fixture.store.pin(atOffset: 1, userID: fixture.alice.id)?.id == second.id)
            #expect(try fixture.store.pin(atOffset: 2, userID: fixture.alice.id) == nil)
        }
    }

    @Test("another user's pin and photos behave exactly like ones that do not exist")
    func anotherUsersPinIsInvisible() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            let album = try fixture.answerSearch(pin, count: 2)
            let photo = album.photos[0]
            _ = try fixture.store.storePhotoImage(fixture.fetched(photo), at: 30)
            let bob = fixture.bob.id
            #expect(try fixture.store.pin(id: pin.id, userID: bob) == nil)
            #expect(try fixture.store.album(pinID: pin.id, userID: bob) == nil)
            #expect(try fixture.store.photo(id: photo.id, userID: bob) == nil)
            #expect(try fixture.store.photoBytes(id: photo.id, userID: bob, thumbnail: false) == nil)
            #expect(storeErrorKind { try fixture.store.deletePin(id: pin.id, userID: bob) } == .notFound)
            #expect(storeErrorKind { try fixture.store.deletePhoto(id: photo.id, userID: bob, at: 40) } == .notFound)
            #expect(try fixture.store.photoBytes(id: photo.id, userID: fixture.alice.id, thumbnail: false)?.bytes == [1, 2, 3])
        }
    }

    @Test("a search answer makes one pending placeholder per photo, in order, with its metadata")
    func searchAnswerMakesPlaceholders() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            let album = try fixture.answerSearch(pin, count: 3, page: 2, pages: 7)
            #expect(album.searched && album.page == 2 && album.pages == 7 && album.state == .downloading)
            #expect(album.photos.map(\.position) == [0, 1, 2])
            #expect(album.photos.allSatisfy { $0.state == .pending && $0.place == "Ann Arbor, Michigan, United States" })
            #expect(album.photos.map(\.title) == ["Photo 0", "Photo 1", "Photo 2"])
            #expect(album.pin.expected == 3 && album.pin.done == 0)
        }
    }

    @Test("a search that finds nothing makes the album empty")
    func emptySearchMakesEmptyAlbum() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice, latitude: -40, longitude: -130)
            let album = try fixture.answerSearch(pin, count: 0, pages: 0)
            #expect(album.state == .empty && album.photos.isEmpty && album.error.isEmpty)
            #expect(try fixture.store.downloadingAlbumPins().isEmpty)
        }
    }

    @Test("a search answer for an older collection or an answered one changes nothing")
    func staleSearchAnswerIsIgnored() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            let stale = AlbumSearch(pinID: pin.id, generation: 7, page: 1, pages: 1, total: 1, slots: PinFixture.slots(1), at: 20)
            #expect(try !fixture.store.recordSearch(stale))
            try fixture.answerSearch(pin, count: 2)
            let again = AlbumSearch(pinID: pin.id, generation: 0, page: 1, pages: 1, total: 5, slots: PinFixture.slots(5), at: 20)
            #expect(try !fixture.store.recordSearch(again))
            #expect(try fixture.store.album(pinID: pin.id, userID: fixture.alice.id)?.photos.count == 2)
        }
    }

    @Test("done counts stored and failed photos, and the album is ready once none is pending")
    func albumBecomesReadyWhenEveryPhotoIsDone() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            let photos = try fixture.answerSearch(pin, count: 3).photos
            #expect(try fixture.store.storePhotoImage(fixture.fetched(photos[0]), at: 30))
            #expect(try fixture.store.pin(id: pin.id, userID: fixture.alice.id)?.done == 1)
            #expect(try fixture.store.failPhoto(id: photos[1].id, message: "HTTP 404", at: 31))
            var current = try #require(try fixture.store.pin(id: pin.id, userID: fixture.alice.id))
            #expect(current.done == 2 && current.albumState == .downloading)
            #expect(try fixture.store.storePhotoImage(fixture.fetched(photos[2]), at: 32))
            current = try #require(try fixture.store.pin(id: pin.id, userID: fixture.alice.id))
            #expect(current.done == 3 && current.expected == 3 && current.albumState == .ready)
            let stored = try #require(try fixture.store.photo(id: photos[0].id, userID: fixture.alice.id))
            #expect(stored.state == .ready && stored.width == 160 && stored.height == 120 && stored.byteCount == 3)
            #expect(try fixture.store.photoBytes(id: photos[0].id, userID: fixture.alice.id, thumbnail: true)?.bytes == [9])
            #expect(try fixture.store.photoBytes(id: photos[1].id, userID: fixture.alice.id, thumbnail: false) == nil)
            #expect(try fixture.store.readyPhotoCount(pinID: pin.id) == 2)
            #expect(try fixture.store.readyPhoto(pinID: pin.id, atOffset: 1)?.id == photos[2].id)
        }
    }

    @Test("an album whose every photo failed is failed, with the provider's reason")
    func albumFailsWhenEveryPhotoFailed() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            let photos = try fixture.answerSearch(pin, count: 2).photos
            _ = try fixture.store.failPhoto(id: photos[0].id, message: "Service currently unavailable", at: 30)
            _ = try fixture.store.failPhoto(id: photos[1].id, message: "Service currently unavailable", at: 31)
            let album = try #require(try fixture.store.album(pinID: pin.id, userID: fixture.alice.id))
            #expect(album.state == .failed)
            #expect(album.error == "could not download any of the album's 2 photos: Service currently unavailable")
        }
    }

    @Test("a result for a removed or finished slot stores nothing")
    func lateResultsAreDropped() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            let photos = try fixture.answerSearch(pin, count: 2).photos
            try fixture.store.deletePhoto(id: photos[0].id, userID: fixture.alice.id, at: 30)
            #expect(try !fixture.store.storePhotoImage(fixture.fetched(photos[0]), at: 31))
            #expect(try fixture.store.storePhotoImage(fixture.fetched(photos[1]), at: 32))
            #expect(try !fixture.store.failPhoto(id: photos[1].id, message: "late", at: 33))
            #expect(try fixture.count("photo_images") == 1)
            #expect(try fixture.store.album(pinID: pin.id, userID: fixture.alice.id)?.state == .ready)
        }
    }

    @Test("removing a photo keeps the others' positions, and removing the last pending one completes the album")
    func removingPhotosKeepsOrder() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            let photos = try fixture.answerSearch(pin, count: 4).photos
            for photo in photos.prefix(3) { _ = try fixture.store.storePhotoImage(fixture.fetched(photo), at: 30) }
            try fixture.store.deletePhoto(id: photos[1].id, userID: fixture.alice.id, at: 31)
            var album = try #require(try fixture.store.album(pinID: pin.id, userID: fixture.alice.id))
            #expect(album.photos.map(\.id) == [photos[0].id, photos[2].id, photos[3].id])
            #expect(album.photos.map(\.position) == [0, 2, 3])
            #expect(album.state == .downloading)
            try fixture.store.deletePhoto(id: photos[3].id, userID: fixture.alice.id, at: 32)
            album = try #require(try fixture.store.album(pinID: pin.id, userID: fixture.alice.id))
            #expect(album.state == .ready && album.pin.expected == 2 && album.pin.done == 2)
            #expect(try fixture.count("photo_images") == 2 && fixture.count("photo_thumbnails") == 2)
        }
    }

    @Test("deleting a pin deletes its album, photos, images and thumbnails")
    func deletingPinCascades() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            let kept = try fixture.dropPin(fixture.alice)
            for photo in try fixture.answerSearch(pin, count: 2).photos {
                _ = try fixture.store.storePhotoImage(fixture.fetched(photo), at: 30)
            }
            try fixture.store.deletePin(id: pin.id, userID: fixture.alice.id)
            for table in ["photos", "photo_images", "photo_thumbnails"] { #expect(try fixture.count(table) == 0, "\(table)") }
            #expect(try fixture.count("albums") == 1)
            #expect(try fixture.store.pins(userID: fixture.alice.id).map(\.id) == [kept.id])
            #expect(storeErrorKind { try fixture.store.deletePin(id: pin.id, userID: fixture.alice.id) } == .notFound)
        }
    }

    @Test("a new collection empties the album and starts a new generation at the chosen page")
    func restartingAlbumStartsNewGeneration() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            for photo in try fixture.answerSearch(pin, count: 2).photos {
                _ = try fixture.store.storePhotoImage(fixture.fetched(photo), at: 30)
            }
            try fixture.store.restartAlbum(pinID: pin.id, page: 4, provider: "builtin", perPage: 21, at: 40)
            let album = try #require(try fixture.store.albumForDownload(pinID: pin.id))
            #expect(album.state == .downloading && !album.searched && album.page == 4 && album.generation == 1)
            #expect(album.pages == 5, "the last search's page count is kept for the next choice")
            #expect(try album.photos.isEmpty && fixture.count("photo_images") == 0)
        }
    }

    @Test("a failed album keeps its message until the next collection")
    func failingAlbumKeepsMessage() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            let pin = try fixture.dropPin(fixture.alice)
            #expect(try !fixture.store.failAlbum(pinID: pin.id, generation: 3, message: "stale", at: 20))
            #expect(try fixture.store.failAlbum(pinID: pin.id, generation: 0, message: "Invalid API Key", at: 20))
            #expect(try fixture.store.album(pinID: pin.id, userID: fixture.alice.id)?.error == "Invalid API Key")
            try fixture.store.restartAlbum(pinID: pin.id, page: 1, provider: "flickr", perPage: 21, at: 30)
            let album = try #require(try fixture.store.album(pinID: pin.id, userID: fixture.alice.id))
            #expect(album.error.isEmpty && album.provider == "flickr" && album.state == .downloading)
        }
    }

    @Test("the map view is per user, absent until saved, and replaced by the next save")
    func mapStateIsPerUser() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            #expect(try fixture.store.mapState(userID: fixture.alice.id) == nil)
            try fixture.store.saveMapState(MapStateRecord(centerLatitude: 10, centerLongitude: 20, zoom: 3), userID: fixture.alice.id, at: 1)
            try fixture.store.saveMapState(MapStateRecord(centerLatitude: -5, centerLongitude: 7.5, zoom: 12), userID: fixture.alice.id, at: 2)
            #expect(try fixture.store.mapState(userID: fixture.alice.id) == MapStateRecord(centerLatitude: -5, centerLongitude: 7.5, zoom: 12))
            #expect(try fixture.store.mapState(userID: fixture.bob.id) == nil)
        }
    }

    @Test("the schema refuses positions and zooms outside their ranges")
    func schemaChecksRanges() throws {
        try withTemporaryDatabase { path in
            let fixture = try PinFixture(path: path)
            #expect(storeErrorKind { try fixture.dropPin(fixture.alice, latitude: 90.5) } != nil)
            #expect(storeErrorKind { try fixture.dropPin(fixture.alice, longitude: -180.01) } != nil)
            #expect(storeErrorKind {
                try fixture.store.saveMapState(MapStateRecord(centerLatitude: 0, centerLongitude: 0, zoom: 0.5), userID: fixture.alice.id, at: 1)
            } != nil)
            #expect(try fixture.store.pinCount(userID: fixture.alice.id) == 0)
        }
    }
}
