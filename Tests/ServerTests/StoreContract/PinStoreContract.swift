import Testing

@testable import Server

/// What every engine's `PinStore` does: pins, their albums' download bookkeeping, and photos.
@Suite("Pin store contract")
struct PinStoreContract {
    @Test("a dropped pin starts with its album downloading and not yet searched", arguments: StoreEngine.all)
    func newPinStartsDownloading(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let pin = try fixture.dropPin(fixture.alice)
            #expect(pin.albumState == .downloading && pin.expected == 0 && pin.done == 0)
            #expect(pin.userID == fixture.alice.id && pin.latitude == 42.28 && pin.longitude == -83.74 && pin.createdAt == 10)
            let album = try #require(try store.album(pinID: pin.id, userID: fixture.alice.id))
            #expect(!album.searched && album.page == 1 && album.perPage == 21 && album.provider == "builtin" && album.photos.isEmpty)
            #expect(album.generation == 0 && album.error.isEmpty && album.pin == pin)
            #expect(try store.downloadingAlbumPins() == [pin.id])
            let nobody = UserRecord(id: 999, name: "nobody", passwordHash: "", isAdmin: false, createdAt: 0)
            #expect(storeErrorKind { try fixture.dropPin(nobody) } == .notFound)
        }
    }

    @Test("pins are listed oldest first and only to their owner", arguments: StoreEngine.all)
    func pinsAreListedToTheirOwner(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let first = try fixture.dropPin(fixture.alice, latitude: 1, longitude: 2)
            _ = try fixture.dropPin(fixture.bob)
            let second = try fixture.dropPin(fixture.alice, latitude: -3, longitude: -4)
            #expect(try store.pins(userID: fixture.alice.id).map(\.id) == [first.id, second.id])
            #expect(try store.pinCount(userID: fixture.alice.id) == 2)
            #expect(try store.pin(id: second.id, userID: fixture.alice.id) == second)
            #expect(try store.pin(atOffset: 0, userID: fixture.alice.id)?.id == first.id)
            #expect(try store.pin(atOffset: 1, userID: fixture.alice.id)?.id == second.id)
            #expect(try store.pin(atOffset: 2, userID: fixture.alice.id) == nil)
            #expect(try store.pin(atOffset: -1, userID: fixture.alice.id) == nil)
        }
    }

    @Test("another user's pin and photos behave exactly like ones that do not exist", arguments: StoreEngine.all)
    func anotherUsersPinIsInvisible(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let pin = try fixture.dropPin(fixture.alice)
            let album = try fixture.answerSearch(pin, count: 2)
            let photo = album.photos[0]
            _ = try store.storePhotoImage(fixture.fetched(photo), at: 30)
            let bob = fixture.bob.id
            #expect(try store.pin(id: pin.id, userID: bob) == nil)
            #expect(try store.album(pinID: pin.id, userID: bob) == nil)
            #expect(try store.photo(id: photo.id, userID: bob) == nil)
            #expect(try store.photoBytes(id: photo.id, userID: bob, thumbnail: false) == nil)
            #expect(storeErrorKind { try store.deletePin(id: pin.id, userID: bob) } == .notFound)
            #expect(storeErrorKind { try store.deletePhoto(id: photo.id, userID: bob, at: 40) } == .notFound)
            #expect(try store.pinCount(userID: bob) == 0 && store.pins(userID: bob).isEmpty)
            #expect(try store.photoBytes(id: photo.id, userID: fixture.alice.id, thumbnail: false)?.bytes == [1, 2, 3])
        }
    }

    @Test("a search answer makes one pending placeholder per photo, in order, with its metadata", arguments: StoreEngine.all)
    func searchAnswerMakesPlaceholders(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let pin = try fixture.dropPin(fixture.alice)
            let album = try fixture.answerSearch(pin, count: 3, page: 2, pages: 7)
            #expect(album.searched && album.page == 2 && album.pages == 7 && album.total == 147 && album.state == .downloading)
            #expect(album.photos.map(\.position) == [0, 1, 2])
            #expect(album.photos.allSatisfy { $0.state == .pending && $0.source.place == "Ann Arbor, Michigan, United States" })
            #expect(album.photos.map(\.source.title) == ["Photo 0", "Photo 1", "Photo 2"])
            #expect(album.photos.map(\.source.reference) == ["ref-0", "ref-1", "ref-2"])
            #expect(album.photos.allSatisfy { $0.pinID == pin.id && $0.source.tags == "cat tree" && $0.source.latitude == 42.28 })
            #expect(album.pin.expected == 3 && album.pin.done == 0)
            #expect(try store.album(pinID: pin.id, userID: fixture.alice.id) == album)
        }
    }

    @Test("a search that finds nothing makes the album empty", arguments: StoreEngine.all)
    func emptySearchMakesEmptyAlbum(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let pin = try fixture.dropPin(fixture.alice, latitude: -40, longitude: -130)
            let album = try fixture.answerSearch(pin, count: 0, pages: 0)
            #expect(album.state == .empty && album.photos.isEmpty && album.error.isEmpty)
            #expect(try store.downloadingAlbumPins().isEmpty)
        }
    }

    @Test("a search answer for an older collection or an answered one changes nothing", arguments: StoreEngine.all)
    func staleSearchAnswerIsIgnored(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let pin = try fixture.dropPin(fixture.alice)
            let stale = AlbumSearch(pinID: pin.id, generation: 7, page: 1, pages: 1, total: 1, slots: StoreFixture.slots(1), at: 20)
            #expect(try !store.recordSearch(stale))
            try fixture.answerSearch(pin, count: 2)
            let again = AlbumSearch(pinID: pin.id, generation: 0, page: 1, pages: 1, total: 5, slots: StoreFixture.slots(5), at: 20)
            #expect(try !store.recordSearch(again))
            #expect(try store.album(pinID: pin.id, userID: fixture.alice.id)?.photos.count == 2)
            let gone = AlbumSearch(pinID: 9_999, generation: 0, page: 1, pages: 1, total: 1, slots: StoreFixture.slots(1), at: 20)
            #expect(try !store.recordSearch(gone))
        }
    }

    @Test("done counts stored and failed photos, and the album is ready once none is pending", arguments: StoreEngine.all)
    func albumBecomesReadyWhenEveryPhotoIsDone(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let alice = fixture.alice.id
            let (pin, photos) = try fixture.pinWithPendingPhotos(3)
            #expect(try store.storePhotoImage(fixture.fetched(photos[0]), at: 30))
            #expect(try store.pin(id: pin.id, userID: alice)?.done == 1)
            #expect(try store.failPhoto(id: photos[1].id, message: "HTTP 404", at: 31))
            var current = try #require(try store.pin(id: pin.id, userID: alice))
            #expect(current.done == 2 && current.albumState == .downloading)
            #expect(try store.photo(id: photos[1].id, userID: alice)?.state == .failed)
            #expect(try store.photo(id: photos[1].id, userID: alice)?.error == "HTTP 404")
            #expect(try store.storePhotoImage(fixture.fetched(photos[2]), at: 32))
            current = try #require(try store.pin(id: pin.id, userID: alice))
            #expect(current.done == 3 && current.expected == 3 && current.albumState == .ready)
            #expect(try store.downloadingAlbumPins().isEmpty)
            let stored = try #require(try store.photo(id: photos[0].id, userID: alice))
            #expect(stored.state == .ready && stored.width == 160 && stored.height == 120 && stored.byteCount == 3)
            #expect(try store.photoBytes(id: photos[0].id, userID: alice, thumbnail: true)?.bytes == [9])
            #expect(try store.photoBytes(id: photos[1].id, userID: alice, thumbnail: false) == nil)
            #expect(try store.readyPhotoCount(pinID: pin.id) == 2)
            #expect(try store.readyPhoto(pinID: pin.id, atOffset: 0)?.id == photos[0].id)
            #expect(try store.readyPhoto(pinID: pin.id, atOffset: 1)?.id == photos[2].id)
            #expect(try store.readyPhoto(pinID: pin.id, atOffset: 2) == nil)
        }
    }

    @Test(
        "a photo's bytes come with its SHA-256, the thumbnail's with its own; a photo without bytes is not found, saying why",
        arguments: StoreEngine.all)
    func withPhotoBytes(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let alice = fixture.alice.id
            let photos = try fixture.pinWithPendingPhotos(3).photos
            _ = try store.storePhotoImage(fixture.fetched(photos[0], bytes: [4, 5, 6, 7], thumbnail: [8, 8]), at: 30)
            _ = try store.failPhoto(id: photos[1].id, message: "HTTP 404", at: 31)
            for thumbnail in [false, true] {
                let (photo, sha256, bytes) = try store.withPhotoBytes(id: photos[0].id, userID: alice, thumbnail: thumbnail) {
                    ($0, $1, try $2.array())
                }
                #expect(photo.id == photos[0].id && photo.state == .ready)
                #expect(sha256 == [UInt8](repeating: thumbnail ? 0xBB : 0xAA, count: 32))
                #expect(bytes == (thumbnail ? [8, 8] : [4, 5, 6, 7]))
            }
            // The message of the `notFound` that reading photo `id` throws.
            func refusal(_ id: Int64) -> String? {
                do {
                    _ = try store.withPhotoBytes(id: id, userID: alice, thumbnail: false) { _, _, _ in 0 }
                    return nil
                } catch let error as StoreError where error.kind == .notFound {
                    return error.message
                } catch {
                    return "\(error)"
                }
            }
            #expect(refusal(photos[1].id)?.contains("HTTP 404") == true)
            #expect(refusal(photos[2].id)?.contains("still downloading") == true)
            #expect(refusal(9_999) != nil)
        }
    }

    @Test("an album whose every photo failed is failed, with the provider's reason", arguments: StoreEngine.all)
    func albumFailsWhenEveryPhotoFailed(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let (pin, photos) = try fixture.pinWithPendingPhotos(2)
            _ = try store.failPhoto(id: photos[0].id, message: "Service currently unavailable", at: 30)
            _ = try store.failPhoto(id: photos[1].id, message: "Service currently unavailable", at: 31)
            let album = try #require(try store.album(pinID: pin.id, userID: fixture.alice.id))
            #expect(album.state == .failed)
            #expect(album.error == "could not download any of the album's 2 photos: Service currently unavailable")
        }
    }

    @Test(
        "completing an album changes nothing before its search answered, while a photo is pending, or once it is done",
        arguments: StoreEngine.all)
    func completeAlbumIfDone(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let pin = try fixture.dropPin(fixture.alice)
            #expect(try !store.completeAlbumIfDone(pinID: pin.id, at: 20))
            let photos = try fixture.answerSearch(pin, count: 2).photos
            _ = try store.storePhotoImage(fixture.fetched(photos[0]), at: 30)
            #expect(try !store.completeAlbumIfDone(pinID: pin.id, at: 31))
            #expect(try store.albumForDownload(pinID: pin.id)?.state == .downloading)
            // Storing the last photo completes the album itself; asking again changes nothing.
            _ = try store.storePhotoImage(fixture.fetched(photos[1]), at: 32)
            #expect(try store.albumForDownload(pinID: pin.id)?.state == .ready)
            #expect(try !store.completeAlbumIfDone(pinID: pin.id, at: 33))
            #expect(try store.albumForDownload(pinID: pin.id)?.state == .ready)
            #expect(try !store.completeAlbumIfDone(pinID: 9_999, at: 33))
        }
    }

    @Test("a result for a removed or finished slot stores nothing", arguments: StoreEngine.all)
    func lateResultsAreDropped(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let alice = fixture.alice.id
            let (pin, photos) = try fixture.pinWithPendingPhotos(2)
            try store.deletePhoto(id: photos[0].id, userID: alice, at: 30)
            #expect(try !store.storePhotoImage(fixture.fetched(photos[0]), at: 31))
            #expect(try store.photo(id: photos[0].id, userID: alice) == nil)
            #expect(try store.storePhotoImage(fixture.fetched(photos[1]), at: 32))
            #expect(try !store.failPhoto(id: photos[1].id, message: "late", at: 33))
            #expect(try !store.storePhotoImage(fixture.fetched(photos[1], bytes: [6, 6]), at: 34))
            #expect(try store.photoBytes(id: photos[1].id, userID: alice, thumbnail: false)?.bytes == [1, 2, 3])
            #expect(try store.photo(id: photos[1].id, userID: alice)?.state == .ready)
            #expect(try store.album(pinID: pin.id, userID: alice)?.state == .ready)
        }
    }

    @Test(
        "removing a photo keeps the others' positions, and removing the last pending one completes the album",
        arguments: StoreEngine.all)
    func removingPhotosKeepsOrder(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let alice = fixture.alice.id
            let (pin, photos) = try fixture.pinWithPendingPhotos(4)
            for photo in photos.prefix(3) { _ = try store.storePhotoImage(fixture.fetched(photo), at: 30) }
            try store.deletePhoto(id: photos[1].id, userID: alice, at: 31)
            var album = try #require(try store.album(pinID: pin.id, userID: alice))
            #expect(album.photos.map(\.id) == [photos[0].id, photos[2].id, photos[3].id])
            #expect(album.photos.map(\.position) == [0, 2, 3])
            #expect(album.state == .downloading)
            #expect(try store.photoBytes(id: photos[1].id, userID: alice, thumbnail: false) == nil)
            try store.deletePhoto(id: photos[3].id, userID: alice, at: 32)
            album = try #require(try store.album(pinID: pin.id, userID: alice))
            #expect(album.state == .ready && album.pin.expected == 2 && album.pin.done == 2)
            #expect(try store.readyPhotoCount(pinID: pin.id) == 2)
            #expect(storeErrorKind { try store.deletePhoto(id: photos[3].id, userID: alice, at: 33) } == .notFound)
        }
    }

    @Test("deleting a pin deletes its album, photos, images and thumbnails", arguments: StoreEngine.all)
    func deletingPinCascades(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let alice = fixture.alice.id
            let pin = try fixture.dropPin(fixture.alice)
            let kept = try fixture.dropPin(fixture.alice)
            let photos = try fixture.answerSearch(pin, count: 2).photos
            for photo in photos { _ = try store.storePhotoImage(fixture.fetched(photo), at: 30) }
            try store.deletePin(id: pin.id, userID: alice)
            #expect(try store.pin(id: pin.id, userID: alice) == nil)
            #expect(try store.album(pinID: pin.id, userID: alice) == nil)
            #expect(try store.albumForDownload(pinID: pin.id) == nil)
            #expect(try store.albumForDownload(pinID: kept.id) != nil)
            for photo in photos {
                #expect(try store.photo(id: photo.id, userID: alice) == nil)
                #expect(try store.photoBytes(id: photo.id, userID: alice, thumbnail: true) == nil)
            }
            #expect(try store.readyPhotoCount(pinID: pin.id) == 0)
            #expect(try store.largestStoredImage() == 0)
            #expect(try store.pins(userID: alice).map(\.id) == [kept.id])
            #expect(try store.downloadingAlbumPins() == [kept.id])
            #expect(storeErrorKind { try store.deletePin(id: pin.id, userID: alice) } == .notFound)
        }
    }

    @Test("a new collection empties the album and starts a new generation at the chosen page", arguments: StoreEngine.all)
    func restartingAlbumStartsNewGeneration(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let (pin, photos) = try fixture.pinWithPendingPhotos(2)
            for photo in photos { _ = try store.storePhotoImage(fixture.fetched(photo), at: 30) }
            try store.restartAlbum(pinID: pin.id, page: 4, provider: "builtin", perPage: 21, at: 40)
            let album = try #require(try store.albumForDownload(pinID: pin.id))
            #expect(album.state == .downloading && !album.searched && album.page == 4 && album.generation == 1)
            #expect(album.pages == 5, "the last search's page count is kept for the next choice")
            #expect(album.photos.isEmpty && album.pin.expected == 0)
            #expect(try store.photo(id: photos[0].id, userID: fixture.alice.id) == nil)
            #expect(try store.largestStoredImage() == 0)
            #expect(try store.downloadingAlbumPins() == [pin.id])
            // An answer for the old generation is stale; one for the new is taken.
            let old = AlbumSearch(pinID: pin.id, generation: 0, page: 4, pages: 5, total: 9, slots: StoreFixture.slots(1), at: 41)
            #expect(try !store.recordSearch(old))
            #expect(try fixture.answerSearch(pin, count: 1).photos.count == 1)
            #expect(
                storeErrorKind { try store.restartAlbum(pinID: 9_999, page: 1, provider: "builtin", perPage: 21, at: 42) }
                    == .notFound)
        }
    }

    @Test("a failed album keeps its message until the next collection", arguments: StoreEngine.all)
    func failingAlbumKeepsMessage(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let pin = try fixture.dropPin(fixture.alice)
            #expect(try !store.failAlbum(pinID: pin.id, generation: 3, message: "stale", at: 20))
            #expect(try store.failAlbum(pinID: pin.id, generation: 0, message: "Invalid API Key", at: 20))
            #expect(try !store.failAlbum(pinID: pin.id, generation: 0, message: "again", at: 21))
            #expect(try store.album(pinID: pin.id, userID: fixture.alice.id)?.error == "Invalid API Key")
            #expect(try store.downloadingAlbumPins().isEmpty)
            try store.restartAlbum(pinID: pin.id, page: 1, provider: "flickr", perPage: 21, at: 30)
            let album = try #require(try store.album(pinID: pin.id, userID: fixture.alice.id))
            #expect(album.error.isEmpty && album.provider == "flickr" && album.state == .downloading)
        }
    }

    @Test("a pin outside the globe is refused", arguments: StoreEngine.all)
    func positionsOutsideTheGlobeAreRefused(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            #expect(storeErrorKind { try fixture.dropPin(fixture.alice, latitude: 90.5) } != nil)
            #expect(storeErrorKind { try fixture.dropPin(fixture.alice, longitude: -180.01) } != nil)
            #expect(try store.pinCount(userID: fixture.alice.id) == 0)
            #expect(try fixture.dropPin(fixture.alice, latitude: -90, longitude: 180).latitude == -90)
        }
    }

    @Test(
        "an album's download lease goes to one owner at a time, is renewed by it, frees when it runs out, and a new collection frees it",
        arguments: StoreEngine.all)
    func albumLeases(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let pin = try fixture.dropPin(fixture.alice)
            #expect(try store.albumsWithExpiredLeases(now: 100) == [pin.id], "a new album's lease is free")
            #expect(try store.claimAlbumLease(pinID: pin.id, owner: "a", now: 100, until: 160))
            #expect(try !store.claimAlbumLease(pinID: pin.id, owner: "b", now: 120, until: 180), "held by a")
            #expect(try store.claimAlbumLease(pinID: pin.id, owner: "a", now: 150, until: 210), "a renews its own")
            #expect(try store.albumsWithExpiredLeases(now: 200).isEmpty)
            #expect(try store.albumsWithExpiredLeases(now: 210) == [pin.id], "a stopped renewing")
            #expect(try store.claimAlbumLease(pinID: pin.id, owner: "b", now: 210, until: 270), "b takes over")
            #expect(try !store.claimAlbumLease(pinID: pin.id, owner: "a", now: 220, until: 280))
            try store.restartAlbum(pinID: pin.id, page: 2, provider: "builtin", perPage: 21, at: 230)
            #expect(try store.claimAlbumLease(pinID: pin.id, owner: "a", now: 231, until: 290), "a new collection is anyone's")
            // A finished album has no download to lease.
            _ = try fixture.answerSearch(pin, count: 0)
            #expect(try !store.claimAlbumLease(pinID: pin.id, owner: "a", now: 240, until: 300))
            #expect(try store.albumsWithExpiredLeases(now: 10_000).isEmpty)
            #expect(try !store.claimAlbumLease(pinID: 9_999, owner: "a", now: 1, until: 2))
        }
    }
}
