import Wire

extension RequestHandler {
    /// The most pins one user may keep: far more than a map can show, few enough that a
    /// listing and the albums behind it stay small.
    public static let maxPinsPerUser = 1_000

    // MARK: Pins

    /// Drops a pin and answers once its album's search has answered, or after
    /// `AlbumDownloader.searchWait` (the download goes on in the background, whether or not
    /// the client stays).
    func addPin(_ request: AddPin, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        try Self.checkPosition(latitude: request.latitude, longitude: request.longitude)
        let pin = NewPin(userID: user.id, latitude: request.latitude, longitude: request.longitude, createdAt: clock.now(),
                         provider: albums.provider.name, perPage: AlbumDownloader.photosPerAlbum)
        let limit = Self.maxPinsPerUser
        let inserted = try await storage.write { store -> PinRecord in
            // Counted in the same write as the insert, so racing drops cannot pass the cap together.
            guard try store.pinCount(userID: user.id) < limit else {
                throw ErrorMessage(code: .invalidArgument,
                                   message: "you already have \(limit) pins, the most one user may keep; delete some first")
            }
            return try store.insertPin(pin)
        }
        // Where people pin is theirs: the log says that, not where.
        logger.info("\(user.name) dropped pin \(inserted.id)")
        await albums.start(pinID: inserted.id)
        let current = try await storage.read { store in try store.pin(id: inserted.id, userID: user.id) }
        guard let current else { throw ErrorMessage(code: .notFound, message: "pin \(inserted.id) was deleted meanwhile") }
        return HandlerOutcome(PinResult(pin: Self.info(current)), requestID: context.requestID)
    }

    func listPins(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pins = try await storage.read { store in try store.pins(userID: user.id) }
        return HandlerOutcome(Pins(pins: pins.map(Self.info)), requestID: context.requestID)
    }

    func deletePin(_ request: DeletePin, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pinID = try Self.storageID(request.pinID, orThrow: Self.noPin(request.pinID))
        try await storage.write { store in try store.deletePin(id: pinID, userID: user.id) }
        albums.cancel(pinID: pinID)
        logger.info("\(user.name) deleted pin \(pinID)")
        return HandlerOutcome(Ok(), requestID: context.requestID)
    }

    // MARK: Albums

    func getAlbum(_ request: GetAlbum, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pinID = try Self.storageID(request.pinID, orThrow: Self.noPin(request.pinID))
        let album = try await storage.read { store in try store.album(pinID: pinID, userID: user.id) }
        guard let album else { throw Self.noPin(request.pinID) }
        return HandlerOutcome(Self.albumMessage(album), requestID: context.requestID)
    }

    /// Empties the album and fetches another page; refused while the album is downloading.
    func newCollection(_ request: NewCollection, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pinID = try Self.storageID(request.pinID, orThrow: Self.noPin(request.pinID))
        let provider = albums.provider.name
        let perPage = AlbumDownloader.photosPerAlbum
        let now = clock.now()
        let page = try await storage.write { store -> Int in
            // Checked and restarted in one write, so two New Collections cannot both pass.
            guard let album = try store.album(pinID: pinID, userID: user.id) else { throw Self.noPin(request.pinID) }
            guard album.state != .downloading else {
                throw ErrorMessage(code: .albumBusy, message: "the album of pin \(pinID) is still downloading "
                                   + "(\(album.pin.done) of \(album.pin.expected) photos); ask for a new collection when it is done")
            }
            // Pages counted by another photo source say nothing about this one.
            let page = album.provider == provider
                ? CollectionPage.next(current: album.page, pages: album.pages, perPage: album.perPage) : 1
            try store.restartAlbum(pinID: pinID, page: page, provider: provider, perPage: perPage, at: now)
            return page
        }
        logger.info("\(user.name) asked for a new collection for pin \(pinID) (page \(page))")
        await albums.start(pinID: pinID)
        let album = try await storage.read { store in try store.album(pinID: pinID, userID: user.id) }
        guard let album else { throw Self.noPin(request.pinID) }
        return HandlerOutcome(Self.albumMessage(album), requestID: context.requestID)
    }

    // MARK: Photos

    /// Removes one photo; the others keep their positions. A photo still downloading may be
    /// removed too: its fetch's result is then dropped.
    func deletePhoto(_ request: DeletePhoto, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let photoID = try Self.storageID(request.photoID, orThrow: Self.noPhoto(request.photoID))
        let now = clock.now()
        // A photo of another user's pin is not found either (the store checks ownership).
        try await storage.write { store in try store.deletePhoto(id: photoID, userID: user.id, at: now) }
        return HandlerOutcome(Ok(), requestID: context.requestID)
    }

    /// One of the user's pins at random and one of its ready photos at random, with where the
    /// pin is in words.
    func randomPin(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pick = try await storage.read { store -> (PinRecord, PhotoRecord?)? in
            try store.transaction {
                let pins = try store.pinCount(userID: user.id)
                guard pins > 0, let pin = try store.pin(atOffset: Int.random(in: 0..<pins), userID: user.id) else { return nil }
                let photos = try store.readyPhotoCount(pinID: pin.id)
                guard photos > 0 else { return (pin, nil) }
                return (pin, try store.readyPhoto(pinID: pin.id, atOffset: Int.random(in: 0..<photos)))
            }
        }
        guard let (pin, photo) = pick else {
            return HandlerOutcome(RandomPinResult(pin: nil, description: "No pins yet", photo: nil), requestID: context.requestID)
        }
        let description = ProviderText.clean(albums.gazetteer.describe(latitude: pin.latitude, longitude: pin.longitude),
                                             maxBytes: FieldLimits.placeName)
        return HandlerOutcome(RandomPinResult(pin: Self.info(pin), description: description, photo: photo.map(Self.info)),
                              requestID: context.requestID)
    }

    // MARK: Map

    /// The view a map starts from until the user saves one: the whole world.
    static let defaultMapState = MapStateRecord(centerLatitude: 0, centerLongitude: 0, zoom: 1)

    func getMapState(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let state = try await storage.read { store in try store.mapState(userID: user.id) } ?? Self.defaultMapState
        return HandlerOutcome(MapState(centerLatitude: state.centerLatitude, centerLongitude: state.centerLongitude, zoom: state.zoom),
                              requestID: context.requestID)
    }

    func setMapState(_ request: SetMapState, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        try Self.checkPosition(latitude: request.centerLatitude, longitude: request.centerLongitude)
        if let problem = MapLimits.zoomProblem(request.zoom) { throw ErrorMessage(code: .invalidArgument, message: problem) }
        let state = MapStateRecord(centerLatitude: request.centerLatitude, centerLongitude: request.centerLongitude, zoom: request.zoom)
        let now = clock.now()
        try await storage.write { store in try store.saveMapState(state, userID: user.id, at: now) }
        return HandlerOutcome(MapState(centerLatitude: state.centerLatitude, centerLongitude: state.centerLongitude, zoom: state.zoom),
                              requestID: context.requestID)
    }

    // MARK: Helpers

    static func checkPosition(latitude: Double, longitude: Double) throws {
        if let problem = MapLimits.positionProblem(latitude: latitude, longitude: longitude) {
            throw ErrorMessage(code: .invalidArgument, message: problem)
        }
    }


    /// The same answer for another user's pin as for one that never existed: ids leak nothing.
    static func noPin(_ id: UInt64) -> ErrorMessage { ErrorMessage(code: .notFound, message: "you have no pin \(id)") }
    static func noPhoto(_ id: UInt64) -> ErrorMessage { ErrorMessage(code: .notFound, message: "you have no photo \(id)") }
    static func noSnap(_ id: UInt64) -> ErrorMessage { ErrorMessage(code: .notFound, message: "no snap \(id)") }

    static func info(_ pin: PinRecord) -> PinInfo {
        PinInfo(id: UInt64(pin.id), latitude: pin.latitude, longitude: pin.longitude, createdAt: pin.createdAt,
                albumState: AlbumState(rawValue: UInt8(pin.albumState.rawValue)) ?? .failed,
                expected: UInt32(clamping: pin.expected), done: UInt32(clamping: pin.done))
    }

    static func info(_ photo: PhotoRecord) -> PhotoInfo {
        PhotoInfo(id: UInt64(photo.id), pinID: UInt64(photo.pinID), position: UInt32(clamping: photo.position),
                  state: PhotoState(rawValue: UInt8(photo.state.rawValue)) ?? .failed,
                  title: photo.title, tags: photo.tags, place: photo.place, latitude: photo.latitude, longitude: photo.longitude,
                  width: UInt32(clamping: photo.width), height: UInt32(clamping: photo.height),
                  byteCount: UInt32(clamping: photo.byteCount))
    }

    static func albumMessage(_ album: AlbumRecord) -> Album {
        Album(pinID: UInt64(album.pin.id), state: AlbumState(rawValue: UInt8(album.state.rawValue)) ?? .failed,
              expected: UInt32(clamping: album.pin.expected), done: UInt32(clamping: album.pin.done),
              error: album.state == .failed ? album.error.truncatedToUTF8Count(FieldLimits.providerError) : "",
              photos: album.photos.map(info))
    }
}
