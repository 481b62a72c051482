import Wire
import Crypto

/// Typed calls for pins, albums, photos, Random Pin and the saved map view.
extension SnapshareSession {
    /// The coordinates the server accepts; checked here too, so a typo never costs a round trip.
    public static let latitudeRange: ClosedRange<Double> = -90...90
    public static let longitudeRange: ClosedRange<Double> = -180...180
    /// The map zooms the client offers: 1 shows the whole world across the terminal, each step
    /// doubles the detail. The bundled 1:110m outlines carry no detail beyond this.
    public static let zoomRange: ClosedRange<Double> = 1...64

    // MARK: Pins

    /// Drops a pin; the server starts downloading its album at once.
    public func addPin(latitude: Double, longitude: Double) throws(ClientError) -> PinInfo {
        try Self.checkCoordinates(latitude: latitude, longitude: longitude)
        return (try request(AddPin(latitude: latitude, longitude: longitude)) as PinResult).pin
    }

    /// My pins, oldest first.
    public func pins() throws(ClientError) -> [PinInfo] { (try request(ListPins()) as Pins).pins }

    /// Deletes a pin with its album and photos.
    public func deletePin(_ pinID: UInt64) throws(ClientError) { let _: Ok = try request(DeletePin(pinID: pinID)) }

    // MARK: Albums and photos

    /// A pin's album: state, progress and one entry per photo slot.
    public func album(pinID: UInt64) throws(ClientError) -> Album { try request(GetAlbum(pinID: pinID)) }

    /// Empties the album and starts fetching a different set. Refused while the album is still
    /// downloading, which surfaces as a rejected-input error with a message saying so.
    public func newCollection(pinID: UInt64) throws(ClientError) -> Album {
        do {
            return try request(NewCollection(pinID: pinID))
        } catch let error where error.serverCode == .albumBusy {
            throw ClientError(.rejected, "the album of pin \(pinID) is still downloading; try again when it is ready",
                              serverCode: .albumBusy)
        }
    }

    /// A photo's bytes (full size or thumbnail), checked to be the photo and variant asked for
    /// and against the SHA-256 the server sent.
    public func photo(_ photoID: UInt64, variant: PhotoVariant = .full) throws(ClientError) -> PhotoImage {
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
    public func deletePhoto(_ photoID: UInt64) throws(ClientError) { let _: Ok = try request(DeletePhoto(photoID: photoID)) }

    /// One of my pins at random with one of its photos at random (`pin` nil when I have none).
    public func randomPin() throws(ClientError) -> RandomPinResult { try request(RandomPin()) }

    // MARK: Map

    /// The saved map view (the whole world at zoom 1 until one is saved).
    public func mapState() throws(ClientError) -> MapState { try request(GetMapState()) }

    /// Saves the map view; returns it as stored.
    public func setMapState(latitude: Double, longitude: Double, zoom: Double) throws(ClientError) -> MapState {
        try Self.checkCoordinates(latitude: latitude, longitude: longitude)
        guard zoom.isFinite, Self.zoomRange.contains(zoom) else {
            throw ClientError(.rejected, "zoom \(zoom) is out of range; use \(Self.describe(Self.zoomRange.lowerBound)) to \(Self.describe(Self.zoomRange.upperBound))")
        }
        return try request(SetMapState(centerLatitude: latitude, centerLongitude: longitude, zoom: zoom))
    }

    /// Refuses coordinates no place on Earth has, with the range in the message.
    static func checkCoordinates(latitude: Double, longitude: Double) throws(ClientError) {
        guard latitude.isFinite, latitudeRange.contains(latitude) else {
            throw ClientError(.rejected, "latitude \(describe(latitude)) is out of range; it must be between -90 and 90")
        }
        guard longitude.isFinite, longitudeRange.contains(longitude) else {
            throw ClientError(.rejected, "longitude \(describe(longitude)) is out of range; it must be between -180 and 180")
        }
    }

    /// `4` rather than `4.0`, `-33.87` as is.
    static func describe(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
