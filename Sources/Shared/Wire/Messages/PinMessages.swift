/// The state of a pin's photo album.
public enum AlbumState: UInt8, Sendable, Equatable, CaseIterable {
    /// Photos are being fetched; `expected` is known, `done` counts the finished ones.
    case downloading = 0
    case ready = 1
    /// The provider has no photos for this place ("No Images").
    case empty = 2
    /// The provider failed (the error says why, e.g. an invalid API key).
    case failed = 3

    public var name: String {
        switch self {
        case .downloading: "downloading"
        case .ready: "ready"
        case .empty: "empty"
        case .failed: "failed"
        }
    }
}

/// The state of one photo slot of an album.
public enum PhotoState: UInt8, Sendable, Equatable {
    /// A placeholder: the bytes are not here yet.
    case pending = 0
    case ready = 1
    case failed = 2
}

/// A map pin of the requesting user, with a summary of its album.
public struct PinInfo: Sendable, Equatable, ListedRecord {
    public var id: UInt64
    public var latitude: Double
    public var longitude: Double
    public var createdAt: Int64
    public var albumState: AlbumState
    public var expected: UInt32
    public var done: UInt32

    public init(id: UInt64, latitude: Double, longitude: Double, createdAt: Int64, albumState: AlbumState, expected: UInt32, done: UInt32) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.createdAt = createdAt
        self.albumState = albumState
        self.expected = expected
        self.done = done
    }

    static let smallest = PinInfo(id: 0, latitude: 0, longitude: 0, createdAt: 0, albumState: .downloading, expected: 0, done: 0)

    init(from r: inout ByteReader) throws(WireError) {
        id = try r.readUInt64("pin.id")
        latitude = try r.readDouble("pin.latitude")
        longitude = try r.readDouble("pin.longitude")
        createdAt = try r.readInt64("pin.created_at")
        let raw = try r.readUInt8("pin.album_state")
        guard let state = AlbumState(rawValue: raw) else { throw WireError.malformed("pin.album_state: unknown value \(raw)") }
        albumState = state
        expected = try r.readUInt32("pin.expected")
        done = try r.readUInt32("pin.done")
    }

    func encode(into w: inout ByteWriter) {
        w.write(id)
        w.write(latitude)
        w.write(longitude)
        w.write(createdAt)
        w.write(albumState.rawValue)
        w.write(expected)
        w.write(done)
    }
}

/// One photo of an album (a placeholder while `state` is pending).
public struct PhotoInfo: Sendable, Equatable, ListedRecord {
    public var id: UInt64
    public var pinID: UInt64
    /// 0-based order within the album; removing a photo keeps the others' order.
    public var position: UInt32
    public var state: PhotoState
    public var title: String
    /// The provider's space-separated lower-case tag string.
    public var tags: String
    public var place: String
    public var latitude: Double
    public var longitude: Double
    public var width: UInt32
    public var height: UInt32
    public var byteCount: UInt32

    public init(
        id: UInt64, pinID: UInt64, position: UInt32, state: PhotoState, title: String, tags: String, place: String,
        latitude: Double, longitude: Double, width: UInt32, height: UInt32, byteCount: UInt32
    ) {
        self.id = id
        self.pinID = pinID
        self.position = position
        self.state = state
        self.title = title
        self.tags = tags
        self.place = place
        self.latitude = latitude
        self.longitude = longitude
        self.width = width
        self.height = height
        self.byteCount = byteCount
    }

    static let smallest = PhotoInfo(
        id: 0, pinID: 0, position: 0, state: .pending, title: "", tags: "", place: "", latitude: 0, longitude: 0, width: 0, height: 0,
        byteCount: 0)

    init(from r: inout ByteReader) throws(WireError) {
        id = try r.readUInt64("photo.id")
        pinID = try r.readUInt64("photo.pin_id")
        position = try r.readUInt32("photo.position")
        let raw = try r.readUInt8("photo.state")
        guard let state = PhotoState(rawValue: raw) else { throw WireError.malformed("photo.state: unknown value \(raw)") }
        self.state = state
        title = try r.readString("photo.title", maxBytes: FieldLimits.photoTitle)
        tags = try r.readString("photo.tags", maxBytes: FieldLimits.photoTags)
        place = try r.readString("photo.place", maxBytes: FieldLimits.placeName)
        latitude = try r.readDouble("photo.latitude")
        longitude = try r.readDouble("photo.longitude")
        width = try r.readUInt32("photo.width")
        height = try r.readUInt32("photo.height")
        byteCount = try r.readUInt32("photo.byte_count")
    }

    func encode(into w: inout ByteWriter) {
        w.write(id)
        w.write(pinID)
        w.write(position)
        w.write(state.rawValue)
        w.write(title)
        w.write(tags)
        w.write(place)
        w.write(latitude)
        w.write(longitude)
        w.write(width)
        w.write(height)
        w.write(byteCount)
    }
}

/// Client → server: drop a pin; its album starts downloading on the server at once.
public struct AddPin: WireMessage, Equatable {
    public static let type = MessageType.addPin
    public var latitude: Double
    public var longitude: Double
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
    public init(from r: inout ByteReader) throws(WireError) {
        latitude = try r.readDouble("latitude")
        longitude = try r.readDouble("longitude")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(latitude)
        w.write(longitude)
    }
}

/// Server → client: one pin.
public struct PinResult: WireMessage, Equatable {
    public static let type = MessageType.pin
    public var pin: PinInfo
    public init(pin: PinInfo) { self.pin = pin }
    public init(from r: inout ByteReader) throws(WireError) { pin = try PinInfo(from: &r) }
    public func encode(into w: inout ByteWriter) { pin.encode(into: &w) }
}

/// Client → server: the requester's pins.
public struct ListPins: EmptyWireMessage, Equatable {
    public static let type = MessageType.listPins
    public init() {}
}

/// Server → client: pins, oldest first.
public struct Pins: WireMessage, Equatable {
    public static let type = MessageType.pins
    public var pins: [PinInfo]
    public init(pins: [PinInfo]) { self.pins = pins }
    public init(from r: inout ByteReader) throws(WireError) {
        pins = try r.readRecords("pins", of: PinInfo.self)
    }
    public func encode(into w: inout ByteWriter) { w.writeRecords(pins) }
}

/// Client → server: delete a pin with its album and photos.
public struct DeletePin: PinRequest, Equatable {
    public static let type = MessageType.deletePin
    public var pinID: UInt64
    public init(pinID: UInt64) { self.pinID = pinID }
}

/// Client → server: a pin's album.
public struct GetAlbum: PinRequest, Equatable {
    public static let type = MessageType.getAlbum
    public var pinID: UInt64
    public init(pinID: UInt64) { self.pinID = pinID }
}

/// Server → client: an album with one entry per photo slot (placeholders while downloading).
public struct Album: WireMessage, Equatable {
    public static let type = MessageType.album
    public var pinID: UInt64
    public var state: AlbumState
    public var expected: UInt32
    public var done: UInt32
    /// The provider's error when `state` is failed, else empty.
    public var error: String
    public var photos: [PhotoInfo]

    public init(pinID: UInt64, state: AlbumState, expected: UInt32, done: UInt32, error: String, photos: [PhotoInfo]) {
        self.pinID = pinID
        self.state = state
        self.expected = expected
        self.done = done
        self.error = error
        self.photos = photos
    }

    public init(from r: inout ByteReader) throws(WireError) {
        pinID = try r.readUInt64("pin_id")
        let raw = try r.readUInt8("state")
        guard let state = AlbumState(rawValue: raw) else { throw WireError.malformed("state: unknown value \(raw)") }
        self.state = state
        expected = try r.readUInt32("expected")
        done = try r.readUInt32("done")
        error = try r.readString("error", maxBytes: FieldLimits.providerError)
        photos = try r.readRecords("photos", of: PhotoInfo.self)
    }

    public func encode(into w: inout ByteWriter) {
        w.write(pinID)
        w.write(state.rawValue)
        w.write(expected)
        w.write(done)
        w.write(error)
        w.writeRecords(photos)
    }
}

/// Client → server: empty the album and fetch a different set. Refused with ALBUM_BUSY while
/// the album is downloading. Answered by Album (state downloading).
public struct NewCollection: PinRequest, Equatable {
    public static let type = MessageType.newCollection
    public var pinID: UInt64
    public init(pinID: UInt64) { self.pinID = pinID }
}

/// Which bytes of a photo to fetch.
public enum PhotoVariant: UInt8, Sendable, Equatable {
    case full = 0
    case thumbnail = 1
}

/// Client → server: a photo's image (full size or thumbnail).
public struct GetPhoto: WireMessage, Equatable {
    public static let type = MessageType.getPhoto
    public var photoID: UInt64
    public var variant: PhotoVariant
    public init(photoID: UInt64, variant: PhotoVariant) {
        self.photoID = photoID
        self.variant = variant
    }
    public init(from r: inout ByteReader) throws(WireError) {
        photoID = try r.readUInt64("photo_id")
        let raw = try r.readUInt8("variant")
        guard let variant = PhotoVariant(rawValue: raw) else { throw WireError.malformed("variant: unknown value \(raw)") }
        self.variant = variant
    }
    public func encode(into w: inout ByteWriter) {
        w.write(photoID)
        w.write(variant.rawValue)
    }
}

/// Server → client: a photo's bytes with their SHA-256.
public struct PhotoImage: WireMessage, Equatable {
    public static let type = MessageType.photoImage
    public var photo: PhotoInfo
    public var variant: PhotoVariant
    public var sha256: [UInt8]
    public var image: [UInt8]
    public init(photo: PhotoInfo, variant: PhotoVariant, sha256: [UInt8], image: [UInt8]) {
        self.photo = photo
        self.variant = variant
        self.sha256 = sha256
        self.image = image
    }
    public init(from r: inout ByteReader) throws(WireError) {
        photo = try PhotoInfo(from: &r)
        let raw = try r.readUInt8("variant")
        guard let variant = PhotoVariant(rawValue: raw) else { throw WireError.malformed("variant: unknown value \(raw)") }
        self.variant = variant
        sha256 = try r.readRaw(32, "sha256")
        image = try r.readBytes("image")
    }
    public func encode(into w: inout ByteWriter) {
        Self.encodeFields(photo: photo, variant: variant, sha256: sha256, into: &w)
        w.writeBytes(image)
    }

    /// Every field before the image.
    private static func encodeFields(photo: PhotoInfo, variant: PhotoVariant, sha256: [UInt8], into w: inout ByteWriter) {
        photo.encode(into: &w)
        w.write(variant.rawValue)
        w.writeRaw(sha256)
    }

    /// The frame of a PhotoImage up to its image: followed by the `imageByteCount` image bytes, the
    /// same bytes as `Frame(PhotoImage(...), requestID:)`, so an image held in memory is sent as it is.
    public static func frameHead(
        requestID: UInt32, version: UInt16 = ProtocolConstants.current, photo: PhotoInfo, variant: PhotoVariant,
        sha256: [UInt8], imageByteCount: Int
    ) -> [UInt8] {
        Frame.wireHead(
            type: type, requestID: requestID, version: version,
            fields: { encodeFields(photo: photo, variant: variant, sha256: sha256, into: &$0) },
            trailingByteCount: imageByteCount)
    }
}

/// Client → server: remove one photo from its album.
public struct DeletePhoto: WireMessage, Equatable {
    public static let type = MessageType.deletePhoto
    public var photoID: UInt64
    public init(photoID: UInt64) { self.photoID = photoID }
    public init(from r: inout ByteReader) throws(WireError) { photoID = try r.readUInt64("photo_id") }
    public func encode(into w: inout ByteWriter) { w.write(photoID) }
}

/// Client → server: pick one of my pins at random, and one of its photos at random.
public struct RandomPin: EmptyWireMessage, Equatable {
    public static let type = MessageType.randomPin
    public init() {}
}

/// Server → client: the random pick. `pin` is nil when the user has no pins; `photo` is nil
/// when the picked pin has no ready photo. `description` places the pin, e.g.
/// `near Ann Arbor, Michigan, United States (4.2 km)`.
public struct RandomPinResult: WireMessage, Equatable {
    public static let type = MessageType.randomPinResult
    public var pin: PinInfo?
    public var description: String
    public var photo: PhotoInfo?

    public init(pin: PinInfo?, description: String, photo: PhotoInfo?) {
        self.pin = pin
        self.description = description
        self.photo = photo
    }

    public init(from r: inout ByteReader) throws(WireError) {
        pin = try r.readBool("has_pin") ? try PinInfo(from: &r) : nil
        description = try r.readString("description", maxBytes: FieldLimits.placeName)
        photo = try r.readBool("has_photo") ? try PhotoInfo(from: &r) : nil
    }

    public func encode(into w: inout ByteWriter) {
        w.write(pin != nil)
        pin?.encode(into: &w)
        w.write(description)
        w.write(photo != nil)
        photo?.encode(into: &w)
    }
}

/// Client → server: the saved map view.
public struct GetMapState: EmptyWireMessage, Equatable {
    public static let type = MessageType.getMapState
    public init() {}
}

/// Client → server: save the map view. Answered by MapState.
public struct SetMapState: MapViewMessage, Equatable {
    public static let type = MessageType.setMapState
    public var centerLatitude: Double
    public var centerLongitude: Double
    public var zoom: Double
    public init(centerLatitude: Double, centerLongitude: Double, zoom: Double) {
        self.centerLatitude = centerLatitude
        self.centerLongitude = centerLongitude
        self.zoom = zoom
    }
}

/// Server → client: the saved map view (the whole world at zoom 1 until one is saved).
public struct MapState: MapViewMessage, Equatable {
    public static let type = MessageType.mapState
    public var centerLatitude: Double
    public var centerLongitude: Double
    public var zoom: Double
    public init(centerLatitude: Double, centerLongitude: Double, zoom: Double) {
        self.centerLatitude = centerLatitude
        self.centerLongitude = centerLongitude
        self.zoom = zoom
    }
}

/// A request whose whole payload is `pin_id: u64`.
public protocol PinRequest: WireMessage {
    var pinID: UInt64 { get }
    init(pinID: UInt64)
}

extension PinRequest {
    public init(from r: inout ByteReader) throws(WireError) { self.init(pinID: try r.readUInt64("pin_id")) }
    public func encode(into w: inout ByteWriter) { w.write(pinID) }
}

/// A message whose whole payload is a map view: `center_latitude: f64`, `center_longitude: f64`,
/// `zoom: f64`.
public protocol MapViewMessage: WireMessage {
    var centerLatitude: Double { get }
    var centerLongitude: Double { get }
    var zoom: Double { get }
    init(centerLatitude: Double, centerLongitude: Double, zoom: Double)
}

extension MapViewMessage {
    public init(from r: inout ByteReader) throws(WireError) {
        self.init(
            centerLatitude: try r.readDouble("center_latitude"), centerLongitude: try r.readDouble("center_longitude"),
            zoom: try r.readDouble("zoom"))
    }
    public func encode(into w: inout ByteWriter) {
        w.write(centerLatitude)
        w.write(centerLongitude)
        w.write(zoom)
    }
}
