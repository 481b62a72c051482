import Wire

/// The requests of the album lifecycle, in domain values: a pin dropped, a New Collection, a pin
/// deleted, a Random Pin with its place in words.
extension Albums {
    /// Drops a pin for `userID` and returns it once its album's search has answered (or failed,
    /// or after `searchWait`; the download goes on in the background). Two storage trips before
    /// the answer: the insert, which reads back the album to download, and the search's record,
    /// which reads back what it made.
    func dropPin(userID: Int64, latitude: Double, longitude: Double) async throws -> PinRecord {
        let pin = NewPin(
            userID: userID, latitude: latitude, longitude: longitude, createdAt: clock.now(),
            provider: provider.name, perPage: Self.photosPerAlbum)
        let limit = Self.maxPinsPerUser
        let album = try await storage.write { store -> AlbumRecord in
            // Counted in the same write as the insert, with the user's row held, so racing drops
            // cannot pass the cap together, on this instance or on others sharing the database.
            try store.lockUser(id: userID)
            guard try store.pinCount(userID: userID) < limit else { throw AlbumError.tooManyPins(limit: limit) }
            let inserted = try store.insertPin(pin)
            guard let album = try store.albumForDownload(pinID: inserted.id) else { throw AlbumError.noPin(inserted.id) }
            return album
        }
        return (await start(album) ?? album).pin
    }

    /// Empties one of the user's albums and fetches another collection (page chosen by
    /// `CollectionPage`); refused while the album is downloading. Returns the album once the new
    /// collection's search has answered, as `dropPin` does.
    func newCollection(pinID: Int64, userID: Int64) async throws -> AlbumRecord {
        let provider = provider.name
        let perPage = Self.photosPerAlbum
        let now = clock.now()
        let restarted = try await storage.write { store -> AlbumRecord in
            // Checked and restarted in one write, with the album's row held, so two New
            // Collections cannot both pass, on this instance or on others sharing the database.
            try store.lockAlbum(pinID: pinID)
            guard let album = try store.album(pinID: pinID, userID: userID) else { throw AlbumError.noPin(pinID) }
            guard album.state != .downloading else {
                throw AlbumError.busy(pinID: pinID, done: album.pin.done, expected: album.pin.expected)
            }
            try store.restartAlbum(
                pinID: pinID, page: CollectionPage.next(after: album, source: provider),
                provider: provider, perPage: perPage, at: now)
            guard let restarted = try store.album(pinID: pinID, userID: userID) else { throw AlbumError.noPin(pinID) }
            return restarted
        }
        return await start(restarted) ?? restarted
    }

    /// Deletes one of the user's pins with its album, and stops its download.
    func deletePin(pinID: Int64, userID: Int64) async throws {
        try await storage.write { store in try store.deletePin(id: pinID, userID: userID) }
        cancel(pinID: pinID)
    }

    /// A Random Pin: one of the user's pins, one of its ready photos (nil when it has none),
    /// and where the pin is in words.
    struct RandomPick: Sendable {
        var pin: PinRecord
        var photo: PhotoRecord?
        var description: String
    }

    /// One of the user's pins at random and one of its ready photos at random; nil without pins.
    func randomPin(userID: Int64) async throws -> RandomPick? {
        let pick = try await storage.read { store -> (PinRecord, PhotoRecord?)? in
            try store.transaction {
                let pins = try store.pinCount(userID: userID)
                guard pins > 0, let pin = try store.pin(atOffset: Int.random(in: 0..<pins), userID: userID) else { return nil }
                let photos = try store.readyPhotoCount(pinID: pin.id)
                guard photos > 0 else { return (pin, nil) }
                return (pin, try store.readyPhoto(pinID: pin.id, atOffset: Int.random(in: 0..<photos)))
            }
        }
        guard let (pin, photo) = pick else { return nil }
        let description = ProviderText.clean(
            gazetteer.describe(latitude: pin.latitude, longitude: pin.longitude),
            maxBytes: FieldLimits.placeName)
        return RandomPick(pin: pin, photo: photo, description: description)
    }
}
