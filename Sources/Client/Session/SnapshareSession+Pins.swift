import Crypto
import Wire

/// Typed calls for pins, albums, photos, Random Pin and the saved map view.
extension SnapshareSession {
    // MARK: Pins

    /// Drops a pin; the server starts downloading its album at once.
    package func addPin(latitude: Double, longitude: Double) throws(ClientError) -> PinInfo {
        try Self.checkCoordinates(latitude: latitude, longitude: longitude)
        return (try request(AddPin(latitude: latitude, longitude: longitude)) as PinResult).pin
    }

    /// My pins, oldest first.
    package func pins() throws(ClientError) -> [PinInfo] { (try request(ListPins()) as Pins).pins }

    /// Deletes a pin with its album and photos.
    package func deletePin(_ pinID: UInt64) throws(ClientError) { let _: Ok = try request(DeletePin(pinID: pinID)) }

    // MARK: Albums and photos

    /// A pin's album: state, progress and one entry per photo slot.
    package func album(pinID: UInt64) throws(ClientError) -> Album { try request(GetAlbum(pinID: pinID)) }

    /// Empties the album and starts fetching a different set. Refused while the album is still
    /// downloading, which surfaces as a rejected-input error with a message saying so.
    package func newCollection(pinID: UInt64) throws(ClientError) -> Album {
        do {
            return try request(NewCollection(pinID: pinID))
        } catch let error where error.serverCode == .albumBusy {
            throw ClientError(
                .rejected, "the album of pin \(pinID) is still downloading; try again when it is ready",
                serverCode: .albumBusy)
        }
    }

    /// A photo's bytes (full size or thumbnail), checked to be the photo and variant asked for
    /// and against the SHA-256 the server sent.
    package func photo(_ photoID: UInt64, variant: PhotoVariant = .full) throws(ClientError) -> PhotoImage {
        let image: PhotoImage = try request(GetPhoto(photoID: photoID, variant: variant))
        guard image.photo.id == photoID else {
            throw ClientError(.integrity, "the server answered for another photo than \(photoID)")
        }
        guard image.variant == variant else {
            throw ClientError(.integrity, "the server sent the wrong image variant of photo \(photoID)")
        }
        guard SHA256.hash(image.image) == image.sha256 else {
            throw ClientError(.integrity, "photo \(photoID) arrived damaged (SHA-256 mismatch) and was not used")
        }
        return image
    }

    /// Removes one photo from its album; the others keep their order.
    func deletePhoto(_ photoID: UInt64) throws(ClientError) { let _: Ok = try request(DeletePhoto(photoID: photoID)) }

    /// One of my pins at random with one of its photos at random (`pin` nil when I have none).
    func randomPin() throws(ClientError) -> RandomPinResult { try request(RandomPin()) }

    // MARK: Map

    /// The saved map view (the whole world at zoom 1 until one is saved).
    package func mapState() throws(ClientError) -> MapState { try request(GetMapState()) }

    /// Saves the map view; returns it as stored.
    func setMapState(latitude: Double, longitude: Double, zoom: Double) throws(ClientError) -> MapState {
        try Self.checkCoordinates(latitude: latitude, longitude: longitude)
        if let problem = MapLimits.zoomProblem(zoom) { throw ClientError(.rejected, problem) }
        return try request(SetMapState(centerLatitude: latitude, centerLongitude: longitude, zoom: zoom))
    }

    /// Refuses coordinates no place on Earth has, with the range in the message.
    static func checkCoordinates(latitude: Double, longitude: Double) throws(ClientError) {
        if let problem = MapLimits.positionProblem(latitude: latitude, longitude: longitude) {
            throw ClientError(.rejected, problem)
        }
    }
}
