/// Admin → server: delete every snap posted more than `olderThan` milliseconds ago (by the
/// server's clock), with its picture and views; with `dryRun`, only count them. Answered by Count.
public struct AdminPurge: WireMessage, Equatable {
    public static let type = MessageType.adminPurge
    public var olderThan: Int64
    public var dryRun: Bool
    public init(olderThan: Int64, dryRun: Bool) {
        self.olderThan = olderThan
        self.dryRun = dryRun
    }
    public init(from r: inout ByteReader) throws(WireError) {
        olderThan = try r.readInt64("older_than")
        dryRun = try r.readBool("dry_run")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(olderThan)
        w.write(dryRun)
    }
}

/// Admin → server: every stored snap (live, expired and erased alike) with an id above
/// `afterID`, lowest id first, at most `limit` (the server caps it at 200), snaps awaiting
/// approval only with `includePending` (version 4; older versions never get them). Answered by
/// ExportedSnaps.
public struct AdminExportSnaps: WireMessage, Equatable {
    public static let type = MessageType.adminExportSnaps
    public var afterID: UInt64
    public var limit: UInt32
    public var includePending: Bool
    public init(afterID: UInt64, limit: UInt32, includePending: Bool = false) {
        self.afterID = afterID
        self.limit = limit
        self.includePending = includePending
    }
    public init(from r: inout ByteReader) throws(WireError) {
        afterID = try r.readUInt64("after_id")
        limit = try r.readUInt32("limit")
        includePending = r.protocolVersion >= 4 ? try r.readBool("include_pending") : false
    }
    public func encode(into w: inout ByteWriter) {
        w.write(afterID)
        w.write(limit)
        if w.protocolVersion >= 4 { w.write(includePending) }
    }
}

/// One stored snap as an export describes it: where and by whom it was posted, when it expires,
/// whether its picture is still kept, and who opened it when.
public struct ExportedSnap: Sendable, Equatable, ListedRecord {
    public var id: UInt64
    public var feed: String
    public var poster: String
    public var postedAt: Int64
    public var expiresAt: Int64
    public var imageKind: ImageFormat
    public var byteCount: UInt32
    public var width: UInt32
    public var height: UInt32
    /// False once the picture is erased (expired and purged): the snap's record stays.
    public var pictureKept: Bool
    public var viewers: [SnapViewer]
    /// Waiting for an admin's approval (`--moderation queue`): nobody but its poster sees it yet.
    /// Version 4 added it (and older versions are never sent such a snap in an export).
    public var awaitingApproval: Bool
    /// How many open reports it has (version 4; 0 in older versions).
    public var reportCount: UInt32
    public init(
        id: UInt64, feed: String, poster: String, postedAt: Int64, expiresAt: Int64, imageKind: ImageFormat,
        byteCount: UInt32, width: UInt32, height: UInt32, pictureKept: Bool, viewers: [SnapViewer],
        awaitingApproval: Bool = false, reportCount: UInt32 = 0
    ) {
        self.id = id
        self.feed = feed
        self.poster = poster
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.imageKind = imageKind
        self.byteCount = byteCount
        self.width = width
        self.height = height
        self.pictureKept = pictureKept
        self.viewers = viewers
        self.awaitingApproval = awaitingApproval
        self.reportCount = reportCount
    }

    static let smallest = ExportedSnap(
        id: 0, feed: "", poster: "", postedAt: 0, expiresAt: 0, imageKind: .png, byteCount: 0, width: 0, height: 0,
        pictureKept: false, viewers: [])

    init(from r: inout ByteReader) throws(WireError) {
        id = try r.readUInt64("snap.id")
        feed = try r.readString("snap.feed", maxBytes: FieldLimits.feedName)
        poster = try r.readString("snap.poster", maxBytes: FieldLimits.username)
        postedAt = try r.readInt64("snap.posted_at")
        expiresAt = try r.readInt64("snap.expires_at")
        let rawKind = try r.readUInt8("snap.image_kind")
        guard let kind = ImageFormat(rawValue: rawKind) else { throw WireError.malformed("snap.image_kind: unknown value \(rawKind)") }
        imageKind = kind
        byteCount = try r.readUInt32("snap.byte_count")
        width = try r.readUInt32("snap.width")
        height = try r.readUInt32("snap.height")
        pictureKept = try r.readBool("snap.picture_kept")
        viewers = try r.readRecords("snap.viewers", of: SnapViewer.self)
        awaitingApproval = r.protocolVersion >= 4 ? try r.readBool("snap.awaiting_approval") : false
        reportCount = r.protocolVersion >= 4 ? try r.readUInt32("snap.report_count") : 0
    }

    func encode(into w: inout ByteWriter) {
        w.write(id)
        w.write(feed)
        w.write(poster)
        w.write(postedAt)
        w.write(expiresAt)
        w.write(imageKind.rawValue)
        w.write(byteCount)
        w.write(width)
        w.write(height)
        w.write(pictureKept)
        w.writeRecords(viewers)
        if w.protocolVersion >= 4 {
            w.write(awaitingApproval)
            w.write(reportCount)
        }
    }
}

/// Server → admin: one page of AdminExportSnaps, and how many snaps are stored in all (for
/// progress; it may change between pages while students post).
public struct ExportedSnaps: WireMessage, Equatable {
    public static let type = MessageType.exportedSnaps
    public var total: UInt64
    public var snaps: [ExportedSnap]
    public init(total: UInt64, snaps: [ExportedSnap]) {
        self.total = total
        self.snaps = snaps
    }
    public init(from r: inout ByteReader) throws(WireError) {
        total = try r.readUInt64("total")
        snaps = try r.readRecords("snaps", of: ExportedSnap.self)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(total)
        w.writeRecords(snaps)
    }
}

/// Admin → server: one snap's picture, whatever its state, without spending a view or appearing
/// among its viewers. Answered by SnapImage; recorded in the audit log.
public struct AdminViewSnap: WireMessage, Equatable {
    public static let type = MessageType.adminViewSnap
    public var snapID: UInt64
    public init(snapID: UInt64) { self.snapID = snapID }
    public init(from r: inout ByteReader) throws(WireError) { snapID = try r.readUInt64("snap_id") }
    public func encode(into w: inout ByteWriter) { w.write(snapID) }
}
