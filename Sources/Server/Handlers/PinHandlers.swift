import Wire

extension RequestHandler {
    // MARK: Pins

    /// Drops a pin and answers once its album's search has answered (see `Albums.dropPin`).
    func addPin(_ request: AddPin, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        try Self.checkPosition(latitude: request.latitude, longitude: request.longitude)
        try await refuseIfSuspended(user, from: "dropping pins")
        let pin = try await albums.dropPin(userID: user.id, latitude: request.latitude, longitude: request.longitude)
        // Where people pin is theirs: the log says that, not where.
        logger.info("\(user.name) dropped pin \(pin.id)")
        return HandlerOutcome(PinResult(pin: Self.info(pin)), for: context)
    }

    func listPins(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pins = try await storage.read { store in try store.pins(userID: user.id) }
        return HandlerOutcome(Pins(pins: pins.map(Self.info)), for: context)
    }

    func deletePin(_ request: DeletePin, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pinID = try Self.storageID(request.pinID, orThrow: Self.noPin(request.pinID))
        try await albums.deletePin(pinID: pinID, userID: user.id)
        logger.info("\(user.name) deleted pin \(pinID)")
        return HandlerOutcome(Ok(), for: context)
    }

    // MARK: Albums

    func getAlbum(_ request: GetAlbum, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pinID = try Self.storageID(request.pinID, orThrow: Self.noPin(request.pinID))
        let album = try await storage.read { store in try store.album(pinID: pinID, userID: user.id) }
        guard let album else { throw Self.noPin(request.pinID) }
        return HandlerOutcome(Self.albumMessage(album), for: context)
    }

    /// Empties the album and fetches another page; refused while the album is downloading.
    func newCollection(_ request: NewCollection, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let pinID = try Self.storageID(request.pinID, orThrow: Self.noPin(request.pinID))
        let album = try await albums.newCollection(pinID: pinID, userID: user.id)
        logger.info("\(user.name) asked for a new collection for pin \(pinID) (page \(album.page))")
        return HandlerOutcome(Self.albumMessage(album), for: context)
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
        return HandlerOutcome(Ok(), for: context)
    }

    /// One of the user's pins at random and one of its ready photos at random, with where the
    /// pin is in words.
    func randomPin(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        guard let pick = try await albums.randomPin(userID: user.id) else {
            return HandlerOutcome(RandomPinResult(pin: nil, description: "No pins yet", photo: nil), for: context)
        }
        return HandlerOutcome(RandomPinResult(pin: Self.info(pick.pin), description: pick.description, photo: pick.photo.map(Self.info)),
                              for: context)
    }

    // MARK: Map

    /// The view a map starts from until the user saves one: the whole world.
    static let defaultMapState = MapStateRecord(centerLatitude: 0, centerLongitude: 0, zoom: 1)

    func getMapState(_ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        let state = try await storage.read { store in try store.mapState(userID: user.id) } ?? Self.defaultMapState
        return HandlerOutcome(MapState(centerLatitude: state.centerLatitude, centerLongitude: state.centerLongitude, zoom: state.zoom),
                              for: context)
    }

    func setMapState(_ request: SetMapState, _ context: RequestContext) async throws -> HandlerOutcome {
        let user = try requireUser(context)
        try Self.checkPosition(latitude: request.centerLatitude, longitude: request.centerLongitude)
        if let problem = MapLimits.zoomProblem(request.zoom) { throw ErrorMessage(code: .invalidArgument, message: problem) }
        let state = MapStateRecord(centerLatitude: request.centerLatitude, centerLongitude: request.centerLongitude, zoom: request.zoom)
        let now = clock.now()
        try await storage.write { store in try store.saveMapState(state, userID: user.id, at: now) }
        return HandlerOutcome(MapState(centerLatitude: state.centerLatitude, centerLongitude: state.centerLongitude, zoom: state.zoom),
                              for: context)
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

    static func errorMessage(for error: AlbumError) -> ErrorMessage {
        switch error {
        case .tooManyPins: ErrorMessage(code: .invalidArgument, message: error.message)
        case .noPin: ErrorMessage(code: .notFound, message: error.message)
        case .busy: ErrorMessage(code: .albumBusy, message: error.message)
        }
    }

    static func info(_ pin: PinRecord) -> PinInfo {
        PinInfo(id: UInt64(pin.id), latitude: pin.latitude, longitude: pin.longitude, createdAt: pin.createdAt,
                albumState: pin.albumState,
                expected: UInt32(clamping: pin.expected), done: UInt32(clamping: pin.done))
    }

    static func info(_ photo: PhotoRecord) -> PhotoInfo {
        PhotoInfo(id: UInt64(photo.id), pinID: UInt64(photo.pinID), position: UInt32(clamping: photo.position),
                  state: photo.state,
                  title: photo.source.title, tags: photo.source.tags, place: photo.source.place,
                  latitude: photo.source.latitude, longitude: photo.source.longitude,
                  width: UInt32(clamping: photo.width), height: UInt32(clamping: photo.height),
                  byteCount: UInt32(clamping: photo.byteCount))
    }

    static func albumMessage(_ album: AlbumRecord) -> Album {
        Album(pinID: UInt64(album.pin.id), state: album.state,
              expected: UInt32(clamping: album.pin.expected), done: UInt32(clamping: album.pin.done),
              error: album.state == .failed ? album.error.truncatedToUTF8Count(FieldLimits.providerError) : "",
              photos: album.photos.map(info))
    }
}
