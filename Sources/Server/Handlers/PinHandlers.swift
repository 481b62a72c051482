import Wire

/// A user's pins, their albums and photos, and the map's saved view.
struct PinHandlers: Sendable {
    let storage: StorageExecutor
    /// The album lifecycle: pins, their downloads, New Collection, Random Pin.
    let albums: Albums
    let logger: Logger
    let clock: WallClock

    // MARK: Pins

    /// Drops a pin and answers once its album's search has answered (see `Albums.dropPin`).
    func addPin(_ request: AddPin, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        try Self.checkPosition(latitude: request.latitude, longitude: request.longitude)
        let now = clock.now()
        if let suspension = try await storage.read({ store in try store.suspension(userID: user.id, classID: nil, now: now) }) {
            throw suspension.refusal(from: "dropping pins", now: now)
        }
        let pin = try await albums.dropPin(userID: user.id, latitude: request.latitude, longitude: request.longitude)
        // Where people pin is theirs: the log says that, not where.
        logger.info("\(user.name) dropped pin \(pin.id)")
        return HandlerOutcome(PinResult(pin: PinInfo(pin)), for: context)
    }

    func listPins(_ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let pins = try await storage.read { store in try store.pins(userID: user.id) }
        return HandlerOutcome(Pins(pins: pins.map(PinInfo.init)), for: context)
    }

    func deletePin(_ request: DeletePin, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let pinID = try StoredID.pin(request.pinID)
        try await albums.deletePin(pinID: pinID, userID: user.id)
        logger.info("\(user.name) deleted pin \(pinID)")
        return HandlerOutcome(Ok(), for: context)
    }

    // MARK: Albums

    func getAlbum(_ request: GetAlbum, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let pinID = try StoredID.pin(request.pinID)
        let album = try await storage.read { store in try store.album(pinID: pinID, userID: user.id) }
        guard let album else { throw StoredID.noPin(request.pinID) }
        return HandlerOutcome(Album(album), for: context)
    }

    /// Empties the album and fetches another page; refused while the album is downloading.
    func newCollection(_ request: NewCollection, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let pinID = try StoredID.pin(request.pinID)
        let album = try await albums.newCollection(pinID: pinID, userID: user.id)
        logger.info("\(user.name) asked for a new collection for pin \(pinID) (page \(album.page))")
        return HandlerOutcome(Album(album), for: context)
    }

    // MARK: Photos

    /// Removes one photo; the others keep their positions. A photo still downloading may be
    /// removed too: its fetch's result is then dropped.
    func deletePhoto(_ request: DeletePhoto, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let photoID = try StoredID.photo(request.photoID)
        let now = clock.now()
        // A photo of another user's pin is not found either (the store checks ownership).
        try await storage.write { store in try store.deletePhoto(id: photoID, userID: user.id, at: now) }
        return HandlerOutcome(Ok(), for: context)
    }

    /// One of the user's pins at random and one of its ready photos at random, with where the
    /// pin is in words.
    func randomPin(_ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        guard let pick = try await albums.randomPin(userID: user.id) else {
            return HandlerOutcome(RandomPinResult(pin: nil, description: "No pins yet", photo: nil), for: context)
        }
        return HandlerOutcome(
            RandomPinResult(pin: PinInfo(pick.pin), description: pick.description, photo: pick.photo.map(PhotoInfo.init)),
            for: context)
    }

    // MARK: Map

    /// The view a map starts from until the user saves one: the whole world.
    static let defaultMapState = MapStateRecord(centerLatitude: 0, centerLongitude: 0, zoom: 1)

    func getMapState(_ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let state = try await storage.read { store in try store.mapState(userID: user.id) } ?? Self.defaultMapState
        return HandlerOutcome(
            MapState(centerLatitude: state.centerLatitude, centerLongitude: state.centerLongitude, zoom: state.zoom),
            for: context)
    }

    func setMapState(_ request: SetMapState, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        try Self.checkPosition(latitude: request.centerLatitude, longitude: request.centerLongitude)
        if let problem = MapLimits.zoomProblem(request.zoom) { throw ErrorMessage(code: .invalidArgument, message: problem) }
        let state = MapStateRecord(centerLatitude: request.centerLatitude, centerLongitude: request.centerLongitude, zoom: request.zoom)
        let now = clock.now()
        try await storage.write { store in try store.saveMapState(state, userID: user.id, at: now) }
        return HandlerOutcome(
            MapState(centerLatitude: state.centerLatitude, centerLongitude: state.centerLongitude, zoom: state.zoom),
            for: context)
    }

    // MARK: Helpers

    static func checkPosition(latitude: Double, longitude: Double) throws {
        if let problem = MapLimits.positionProblem(latitude: latitude, longitude: longitude) {
            throw ErrorMessage(code: .invalidArgument, message: problem)
        }
    }
}
