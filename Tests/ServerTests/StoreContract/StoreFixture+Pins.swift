import Testing

@testable import Server

/// Pins, search answers and fetched photos for the pin contract tests.
extension StoreFixture {
    @discardableResult
    func dropPin(_ user: UserRecord, latitude: Double = 42.28, longitude: Double = -83.74, at: Int64 = 10) throws -> PinRecord {
        try store.insertPin(
            NewPin(
                userID: user.id, latitude: latitude, longitude: longitude, createdAt: at,
                provider: "builtin", perPage: 21))
    }

    static func slots(_ count: Int) -> [ProviderPhoto] {
        (0..<count).map {
            ProviderPhoto(
                id: "p\($0)", title: "Photo \($0)", tags: "cat tree", place: "Ann Arbor, Michigan, United States",
                latitude: 42.28, longitude: -83.74, reference: "ref-\($0)")
        }
    }

    /// Records a search answer of `count` photos for the pin's current collection.
    @discardableResult
    func answerSearch(_ pin: PinRecord, count: Int, page: Int = 1, pages: Int = 5) throws -> AlbumRecord {
        let album = try #require(try store.albumForDownload(pinID: pin.id))
        #expect(
            try store.recordSearch(
                AlbumSearch(
                    pinID: pin.id, generation: album.generation, page: page, pages: pages,
                    total: pages * 21, slots: Self.slots(count), at: 20)))
        return try #require(try store.albumForDownload(pinID: pin.id))
    }

    /// Drops a pin of alice's and answers its search with `count` pending photos.
    func pinWithPendingPhotos(_ count: Int) throws -> (pin: PinRecord, photos: [PhotoRecord]) {
        let pin = try dropPin(alice)
        return (pin, try answerSearch(pin, count: count).photos)
    }

    /// A fetched photo: the image `bytes` and the `thumbnail`.
    func fetched(_ photo: PhotoRecord, bytes: [UInt8] = [1, 2, 3], thumbnail: [UInt8] = [9]) -> FetchedPhoto {
        FetchedPhoto(
            photoID: photo.id, image: bytes, imageSHA256: [UInt8](repeating: 0xAA, count: 32), thumbnail: thumbnail,
            thumbnailSHA256: [UInt8](repeating: 0xBB, count: 32), width: 160, height: 120)
    }
}
