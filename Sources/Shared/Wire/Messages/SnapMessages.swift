/// A feed as the requesting user sees it.
public struct FeedInfo: Sendable, Equatable, ListedRecord {
    public var id: UInt64
    public var name: String
    public var snapCount: UInt32
    public var unreadCount: UInt32

    public init(id: UInt64, name: String, snapCount: UInt32, unreadCount: UInt32) {
        self.id = id
        self.name = name
        self.snapCount = snapCount
        self.unreadCount = unreadCount
    }

    static let smallest = FeedInfo(id: 0, name: "", snapCount: 0, unreadCount: 0)

    init(from r: inout ByteReader) throws(WireError) {
        id = try r.readUInt64("feed.id")
        name = try r.readString("feed.name", maxBytes: FieldLimits.feedName)
        snapCount = try r.readUInt32("feed.snap_count")
        unreadCount = try r.readUInt32("feed.unread_count")
    }

    func encode(into w: inout ByteWriter) {
        w.write(id)
        w.write(name)
        w.write(snapCount)
        w.write(unreadCount)
    }
}

/// How a snap looks to the requesting user.
public enum SnapState: UInt8, Sendable, Equatable, CaseIterable {
    case unread = 0
    case read = 1
    case sent = 2
    /// The poster's own snap awaiting an admin's approval (`--moderation queue`); nobody else
    /// sees it. Added in protocol version 3: an older connection is told `sent`.
    case pending = 3
    /// The poster's own snap that an admin rejected: its picture is gone, and the Snap's `note`
    /// says why. Listed to its poster until dismissed (UnsendSnap) or expired. Added in protocol
    /// version 4: older connections are never sent one.
    case rejected = 4

    public var name: String {
        switch self {
        case .unread: "unread"
        case .read: "read"
        case .sent: "sent"
        case .pending: "pending"
        case .rejected: "rejected"
        }
    }

    /// The state as protocol `version` says it: a version without the state hears the poster's own
    /// snap as sent (the server lists no rejected snap below version 4, and this keeps the codec
    /// total: what it writes in a version, that version reads).
    func spoken(in version: UInt16) -> SnapState {
        switch self {
        case .pending where version < 3, .rejected where version < 4: .sent
        default: self
        }
    }

    /// Whether protocol `version` has this state at all.
    func exists(in version: UInt16) -> Bool { self != .rejected || version >= 4 }
}

/// The image file formats Snapshare accepts, for snaps and album photos alike; the raw value is
/// the protocol's `image_kind` and what storage keeps.
public enum ImageFormat: UInt8, Sendable, Equatable, CaseIterable {
    case png = 1
    case jpeg = 2

    public var name: String { self == .png ? "png" : "jpeg" }
}

/// A snap's metadata. Listings carry only this; image bytes travel only in SnapImage.
public struct SnapInfo: Sendable, Equatable, ListedRecord {
    public var id: UInt64
    public var feed: String
    public var poster: String
    public var postedAt: Int64
    public var expiresAt: Int64
    public var state: SnapState
    public var imageKind: ImageFormat
    public var byteCount: UInt32
    public var width: UInt32
    public var height: UInt32
    /// How many people opened it: counted for the poster's own snaps (state sent), 0 otherwise.
    public var openedCount: UInt32
    /// False for a Snap read in protocol version 1, which has no count of opens (`openedCount`
    /// is then 0 and means nothing): a client says it does not know rather than "not opened".
    public var isOpenedCountKnown = true
    /// A rejected snap's reason from the admin (empty when none was given), empty for every other
    /// state. Version 4 added it.
    public var note = ""

    public init(
        id: UInt64, feed: String, poster: String, postedAt: Int64, expiresAt: Int64, state: SnapState,
        imageKind: ImageFormat, byteCount: UInt32, width: UInt32, height: UInt32, openedCount: UInt32 = 0, note: String = ""
    ) {
        self.id = id
        self.feed = feed
        self.poster = poster
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.state = state
        self.imageKind = imageKind
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.openedCount = openedCount
        self.note = note
    }

    static let smallest = SnapInfo(
        id: 0, feed: "", poster: "", postedAt: 0, expiresAt: 0, state: .unread, imageKind: .png, byteCount: 0, width: 0, height: 0)

    init(from r: inout ByteReader) throws(WireError) {
        id = try r.readUInt64("snap.id")
        feed = try r.readString("snap.feed", maxBytes: FieldLimits.feedName)
        poster = try r.readString("snap.poster", maxBytes: FieldLimits.username)
        postedAt = try r.readInt64("snap.posted_at")
        expiresAt = try r.readInt64("snap.expires_at")
        let rawState = try r.readUInt8("snap.state")
        guard let state = SnapState(rawValue: rawState), state.exists(in: r.protocolVersion), state.spoken(in: r.protocolVersion) == state
        else {
            throw WireError.malformed("snap.state: unknown value \(rawState)")
        }
        self.state = state
        let rawKind = try r.readUInt8("snap.image_kind")
        guard let kind = ImageFormat(rawValue: rawKind) else { throw WireError.malformed("snap.image_kind: unknown value \(rawKind)") }
        imageKind = kind
        byteCount = try r.readUInt32("snap.byte_count")
        width = try r.readUInt32("snap.width")
        height = try r.readUInt32("snap.height")
        // Version 2 added the count of opens (version 1's Snap ends at the height).
        openedCount = r.protocolVersion >= 2 ? try r.readUInt32("snap.opened_count") : 0
        isOpenedCountKnown = r.protocolVersion >= 2
        note = r.protocolVersion >= 4 ? try r.readString("snap.note", maxBytes: FieldLimits.reason) : ""
    }

    func encode(into w: inout ByteWriter) {
        w.write(id)
        w.write(feed)
        w.write(poster)
        w.write(postedAt)
        w.write(expiresAt)
        w.write(state.spoken(in: w.protocolVersion).rawValue)
        w.write(imageKind.rawValue)
        w.write(byteCount)
        w.write(width)
        w.write(height)
        if w.protocolVersion >= 2 { w.write(openedCount) }
        if w.protocolVersion >= 4 { w.write(note) }
    }
}

/// Client → server: every feed with counts.
public struct ListFeeds: EmptyWireMessage, Equatable {
    public static let type = MessageType.listFeeds
    public init() {}
}

/// Server → client: the feeds, by name.
public struct Feeds: WireMessage, Equatable {
    public static let type = MessageType.feeds
    public var feeds: [FeedInfo]
    public init(feeds: [FeedInfo]) { self.feeds = feeds }
    public init(from r: inout ByteReader) throws(WireError) {
        feeds = try r.readRecords("feeds", of: FeedInfo.self)
    }
    public func encode(into w: inout ByteWriter) { w.writeRecords(feeds) }
}

/// Client → server: the live snaps of one feed, or of every feed when `feed` is empty.
public struct ListSnaps: WireMessage, Equatable {
    public static let type = MessageType.listSnaps
    public var feed: String
    public init(feed: String) { self.feed = feed }
    public init(from r: inout ByteReader) throws(WireError) { feed = try r.readString("feed", maxBytes: FieldLimits.feedName) }
    public func encode(into w: inout ByteWriter) { w.write(feed) }
}

/// Server → client: snaps newest first, with the change version they reflect.
public struct Snaps: WireMessage, Equatable {
    public static let type = MessageType.snaps
    public var version: UInt64
    public var snaps: [SnapInfo]
    public init(version: UInt64, snaps: [SnapInfo]) {
        self.version = version
        self.snaps = snaps
    }
    public init(from r: inout ByteReader) throws(WireError) {
        version = try r.readUInt64("version")
        snaps = try r.readRecords("snaps", of: SnapInfo.self)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(version)
        w.writeRecords(snaps)
    }
}

/// Client → server: has anything changed since `knownVersion`? Cheap; never touches storage.
public struct Poll: WireMessage, Equatable {
    public static let type = MessageType.poll
    public var knownVersion: UInt64
    public init(knownVersion: UInt64) { self.knownVersion = knownVersion }
    public init(from r: inout ByteReader) throws(WireError) { knownVersion = try r.readUInt64("known_version") }
    public func encode(into w: inout ByteWriter) { w.write(knownVersion) }
}

/// Server → client: the current change version; `changed` when it differs from the known one.
public struct PollResult: WireMessage, Equatable {
    public static let type = MessageType.pollResult
    public var version: UInt64
    public var changed: Bool
    public init(version: UInt64, changed: Bool) {
        self.version = version
        self.changed = changed
    }
    public init(from r: inout ByteReader) throws(WireError) {
        version = try r.readUInt64("version")
        changed = try r.readBool("changed")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(version)
        w.write(changed)
    }
}

/// Client → server: post one PNG or JPEG image to exactly one feed.
public struct PostSnap: WireMessage, Equatable {
    public static let type = MessageType.postSnap
    public var feed: String
    public var image: [UInt8]
    public init(feed: String, image: [UInt8]) {
        self.feed = feed
        self.image = image
    }
    public init(from r: inout ByteReader) throws(WireError) {
        feed = try r.readString("feed", maxBytes: FieldLimits.feedName)
        image = try r.readBytes("image")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(feed)
        w.writeBytes(image)
    }
}

/// Server → client: the snap just stored (state `sent`).
public struct SnapPosted: WireMessage, Equatable {
    public static let type = MessageType.snapPosted
    public var snap: SnapInfo
    public init(snap: SnapInfo) { self.snap = snap }
    public init(from r: inout ByteReader) throws(WireError) { snap = try SnapInfo(from: &r) }
    public func encode(into w: inout ByteWriter) { snap.encode(into: &w) }
}

/// Client → server: open a snap. This consumes the requester's one view.
public struct OpenSnap: WireMessage, Equatable {
    public static let type = MessageType.openSnap
    public var snapID: UInt64
    public init(snapID: UInt64) { self.snapID = snapID }
    public init(from r: inout ByteReader) throws(WireError) { snapID = try r.readUInt64("snap_id") }
    public func encode(into w: inout ByteWriter) { w.write(snapID) }
}

/// Server → client: the one delivery of a snap's image, with its SHA-256.
public struct SnapImage: WireMessage, Equatable {
    public static let type = MessageType.snapImage
    public var snap: SnapInfo
    public var sha256: [UInt8]
    public var image: [UInt8]
    public init(snap: SnapInfo, sha256: [UInt8], image: [UInt8]) {
        self.snap = snap
        self.sha256 = sha256
        self.image = image
    }
    public init(from r: inout ByteReader) throws(WireError) {
        snap = try SnapInfo(from: &r)
        sha256 = try r.readRaw(32, "sha256")
        image = try r.readBytes("image")
    }
    public func encode(into w: inout ByteWriter) {
        Self.encodeFields(snap: snap, sha256: sha256, into: &w)
        w.writeBytes(image)
    }

    /// Every field before the image.
    private static func encodeFields(snap: SnapInfo, sha256: [UInt8], into w: inout ByteWriter) {
        snap.encode(into: &w)
        w.writeRaw(sha256)
    }

    /// The frame of a SnapImage up to its image: followed by the `imageByteCount` image bytes, the
    /// same bytes as `Frame(SnapImage(...), requestID:)`, so an image held in memory is sent as it is.
    public static func frameHead(
        requestID: UInt32, version: UInt16 = ProtocolConstants.current, snap: SnapInfo, sha256: [UInt8],
        imageByteCount: Int
    ) -> [UInt8] {
        Frame.wireHead(
            type: type, requestID: requestID, version: version,
            fields: { encodeFields(snap: snap, sha256: sha256, into: &$0) }, trailingByteCount: imageByteCount)
    }
}

/// Client → server: who opened a snap, and when (its poster and admins only).
public struct GetSnapViews: WireMessage, Equatable {
    public static let type = MessageType.getSnapViews
    public var snapID: UInt64
    public init(snapID: UInt64) { self.snapID = snapID }
    public init(from r: inout ByteReader) throws(WireError) { snapID = try r.readUInt64("snap_id") }
    public func encode(into w: inout ByteWriter) { w.write(snapID) }
}

/// One person who opened a snap.
public struct SnapViewer: Sendable, Equatable, ListedRecord {
    public var username: String
    public var viewedAt: Int64
    public init(username: String, viewedAt: Int64) {
        self.username = username
        self.viewedAt = viewedAt
    }
    static let smallest = SnapViewer(username: "", viewedAt: 0)

    init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("viewer.username", maxBytes: FieldLimits.username)
        viewedAt = try r.readInt64("viewer.viewed_at")
    }

    func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(viewedAt)
    }
}

/// Server → client: a snap and the people who opened it, first opened first.
public struct SnapViews: WireMessage, Equatable {
    public static let type = MessageType.snapViews
    public var snap: SnapInfo
    public var viewers: [SnapViewer]
    public init(snap: SnapInfo, viewers: [SnapViewer]) {
        self.snap = snap
        self.viewers = viewers
    }
    public init(from r: inout ByteReader) throws(WireError) {
        snap = try SnapInfo(from: &r)
        viewers = try r.readRecords("viewers", of: SnapViewer.self)
    }
    public func encode(into w: inout ByteWriter) {
        snap.encode(into: &w)
        w.writeRecords(viewers)
    }
}
