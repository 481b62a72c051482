import Crypto
import Wire

/// Golden vectors of docs/PROTOCOL.md for pins, albums, photos and the map (section 5.5).
enum PinVectors {
    static let time: Int64 = 1_764_417_600_000

    static func cases() -> [(String, Frame)] {
        let pin = PinInfo(id: 3, latitude: 42.25, longitude: -83.75, createdAt: time, albumState: .downloading, expected: 21, done: 1)
        let ready = PhotoInfo(
            id: 40, pinID: 3, position: 0, state: .ready, title: "Kerrytown", tags: "annarbor cat",
            place: "Ann Arbor, Michigan, United States", latitude: 42.25, longitude: -83.75,
            width: 160, height: 120, byteCount: 4)
        let pending = PhotoInfo(
            id: 41, pinID: 3, position: 1, state: .pending, title: "Main Street", tags: "",
            place: "Ann Arbor, Michigan, United States", latitude: 42.5, longitude: -83.5,
            width: 0, height: 0, byteCount: 0)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        var readyPin = pin
        readyPin.albumState = .ready
        readyPin.expected = 2
        readyPin.done = 2
        return [
            ("add-pin", Frame(AddPin(latitude: 42.25, longitude: -83.75), requestID: 20)),
            ("pin-result", Frame(PinResult(pin: pin), requestID: 20)),
            ("list-pins", Frame(ListPins(), requestID: 21)),
            ("pins", Frame(Pins(pins: [pin]), requestID: 21)),
            ("delete-pin", Frame(DeletePin(pinID: 3), requestID: 22)),
            ("get-album", Frame(GetAlbum(pinID: 3), requestID: 23)),
            (
                "album",
                Frame(Album(pinID: 3, state: .downloading, expected: 2, done: 1, error: "", photos: [ready, pending]), requestID: 23)
            ),
            (
                "album-failed",
                Frame(Album(pinID: 3, state: .failed, expected: 0, done: 0, error: "Invalid API Key", photos: []), requestID: 24)
            ),
            ("new-collection", Frame(NewCollection(pinID: 3), requestID: 25)),
            ("error-album-busy", Frame(ErrorMessage(code: .albumBusy, message: "still downloading"), requestID: 25)),
            ("get-photo", Frame(GetPhoto(photoID: 40, variant: .thumbnail), requestID: 26)),
            ("photo-image", Frame(PhotoImage(photo: ready, variant: .full, sha256: SHA256.hash(png), image: png), requestID: 27)),
            ("delete-photo", Frame(DeletePhoto(photoID: 41), requestID: 28)),
            ("random-pin", Frame(RandomPin(), requestID: 29)),
            ("random-pin-result", Frame(RandomPinResult(pin: readyPin, description: "in Ann Arbor", photo: ready), requestID: 29)),
            ("random-pin-result-none", Frame(RandomPinResult(pin: nil, description: "No pins yet", photo: nil), requestID: 30)),
            ("get-map-state", Frame(GetMapState(), requestID: 31)),
            ("set-map-state", Frame(SetMapState(centerLatitude: 48.5, centerLongitude: 2.25, zoom: 6), requestID: 32)),
            ("map-state", Frame(MapState(centerLatitude: 48.5, centerLongitude: 2.25, zoom: 6), requestID: 32)),
        ]
    }
}
