/// User → server: report a snap the user can see in a listing, with a reason (1 to 200
/// characters); once per user and snap. Answered by Ok.
public struct ReportSnap: WireMessage, Equatable {
    public static let type = MessageType.reportSnap
    public var snapID: UInt64
    public var reason: String
    public init(snapID: UInt64, reason: String) {
        self.snapID = snapID
        self.reason = reason
    }
    public init(from r: inout ByteReader) throws(WireError) {
        snapID = try r.readUInt64("snap_id")
        reason = try r.readString("reason", maxBytes: FieldLimits.reason)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(snapID)
        w.write(reason)
    }
}

/// Poster → server: take back one's own snap. Answered by Ok.
public struct UnsendSnap: WireMessage, Equatable {
    public static let type = MessageType.unsendSnap
    public var snapID: UInt64
    public init(snapID: UInt64) { self.snapID = snapID }
    public init(from r: inout ByteReader) throws(WireError) { snapID = try r.readUInt64("snap_id") }
    public func encode(into w: inout ByteWriter) { w.write(snapID) }
}

/// Admin → server: the open reports. Answered by Reports.
public struct AdminListReports: WireMessage, Equatable {
    public static let type = MessageType.adminListReports
    public init() {}
    public init(from r: inout ByteReader) throws(WireError) {}
    public func encode(into w: inout ByteWriter) {}
}

/// One user's report of a snap: who (shown to admins only), why, and when.
public struct SnapReport: Sendable, Equatable, ListedRecord {
    public var reporter: String
    public var reason: String
    public var reportedAt: Int64
    public init(reporter: String, reason: String, reportedAt: Int64) {
        self.reporter = reporter
        self.reason = reason
        self.reportedAt = reportedAt
    }
    static let smallest = SnapReport(reporter: "", reason: "", reportedAt: 0)

    init(from r: inout ByteReader) throws(WireError) {
        reporter = try r.readString("report.reporter", maxBytes: FieldLimits.username)
        reason = try r.readString("report.reason", maxBytes: FieldLimits.reason)
        reportedAt = try r.readInt64("report.reported_at")
    }

    func encode(into w: inout ByteWriter) {
        w.write(reporter)
        w.write(reason)
        w.write(reportedAt)
    }
}

/// A snap with open reports, as the admins' queue shows it.
public struct ReportedSnap: Sendable, Equatable, ListedRecord {
    public var snapID: UInt64
    public var feed: String
    public var poster: String
    public var postedAt: Int64
    public var expiresAt: Int64
    /// Whether the picture is still stored (a reported snap's is kept until the report is resolved).
    public var pictureKept: Bool
    /// Oldest first.
    public var reports: [SnapReport]
    public init(snapID: UInt64, feed: String, poster: String, postedAt: Int64, expiresAt: Int64, pictureKept: Bool, reports: [SnapReport]) {
        self.snapID = snapID
        self.feed = feed
        self.poster = poster
        self.postedAt = postedAt
        self.expiresAt = expiresAt
        self.pictureKept = pictureKept
        self.reports = reports
    }
    static let smallest = ReportedSnap(snapID: 0, feed: "", poster: "", postedAt: 0, expiresAt: 0, pictureKept: false, reports: [])

    init(from r: inout ByteReader) throws(WireError) {
        snapID = try r.readUInt64("snap_id")
        feed = try r.readString("feed", maxBytes: FieldLimits.feedName)
        poster = try r.readString("poster", maxBytes: FieldLimits.username)
        postedAt = try r.readInt64("posted_at")
        expiresAt = try r.readInt64("expires_at")
        pictureKept = try r.readBool("picture_kept")
        reports = try r.readRecords("reports", of: SnapReport.self)
    }

    func encode(into w: inout ByteWriter) {
        w.write(snapID)
        w.write(feed)
        w.write(poster)
        w.write(postedAt)
        w.write(expiresAt)
        w.write(pictureKept)
        w.writeRecords(reports)
    }
}

/// Server → admin: the snaps with open reports, the longest waiting first.
public struct Reports: WireMessage, Equatable {
    public static let type = MessageType.reports
    public var snaps: [ReportedSnap]
    public init(snaps: [ReportedSnap]) { self.snaps = snaps }
    public init(from r: inout ByteReader) throws(WireError) {
        snaps = try r.readRecords("snaps", of: ReportedSnap.self)
    }
    public func encode(into w: inout ByteWriter) { w.writeRecords(snaps) }
}

/// What an admin does with a reported snap.
public enum ReportResolution: UInt8, Sendable, Equatable, CaseIterable {
    /// The reports go; the snap stays as it was.
    case dismiss = 0
    /// The snap goes, with its picture, views and reports.
    case delete = 1
}

/// Admin → server: resolve the reports of one snap; with `suspendFor` (milliseconds, 0 for
/// none), also suspend its poster that long. Answered by Ok.
public struct AdminResolveReport: WireMessage, Equatable {
    public static let type = MessageType.adminResolveReport
    public var snapID: UInt64
    public var resolution: ReportResolution
    public var suspendFor: Int64
    public init(snapID: UInt64, resolution: ReportResolution, suspendFor: Int64 = 0) {
        self.snapID = snapID
        self.resolution = resolution
        self.suspendFor = suspendFor
    }
    public init(from r: inout ByteReader) throws(WireError) {
        snapID = try r.readUInt64("snap_id")
        let raw = try r.readUInt8("resolution")
        guard let resolution = ReportResolution(rawValue: raw) else { throw WireError.malformed("resolution: unknown value \(raw)") }
        self.resolution = resolution
        suspendFor = try r.readInt64("suspend_for")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(snapID)
        w.write(resolution.rawValue)
        w.write(suspendFor)
    }
}

/// Admin → server: suspend `username` for `duration` milliseconds (> 0) with a reason shown to
/// them: they may log in and open snaps, but not post, drop pins or report. Answered by Ok.
public struct AdminSuspend: WireMessage, Equatable {
    public static let type = MessageType.adminSuspend
    public var username: String
    public var duration: Int64
    public var reason: String
    public init(username: String, duration: Int64, reason: String) {
        self.username = username
        self.duration = duration
        self.reason = reason
    }
    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        duration = try r.readInt64("duration")
        reason = try r.readString("reason", maxBytes: FieldLimits.reason)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(duration)
        w.write(reason)
    }
}

/// Admin → server: end `username`'s suspension now. Answered by Ok.
public struct AdminUnsuspend: WireMessage, Equatable {
    public static let type = MessageType.adminUnsuspend
    public var username: String
    public init(username: String) { self.username = username }
    public init(from r: inout ByteReader) throws(WireError) { username = try r.readString("username", maxBytes: FieldLimits.username) }
    public func encode(into w: inout ByteWriter) { w.write(username) }
}

/// Admin → server: disable `username` (their sessions end and their logins are refused; the
/// name stays taken) or enable them again. Answered by Ok.
public struct AdminSetDisabled: WireMessage, Equatable {
    public static let type = MessageType.adminSetDisabled
    public var username: String
    public var disabled: Bool
    public init(username: String, disabled: Bool) {
        self.username = username
        self.disabled = disabled
    }
    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        disabled = try r.readBool("disabled")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(disabled)
    }
}

/// Admin → server: rename a user; their sessions carry on under the new name. Answered by Ok.
public struct AdminRenameUser: WireMessage, Equatable {
    public static let type = MessageType.adminRenameUser
    public var username: String
    public var newName: String
    public init(username: String, newName: String) {
        self.username = username
        self.newName = newName
    }
    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        newName = try r.readString("new_name", maxBytes: FieldLimits.username)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(newName)
    }
}

/// Admin → server: delete a user with their snaps, views, pins, albums, movies and sessions.
/// Answered by Ok.
public struct AdminDeleteUser: WireMessage, Equatable {
    public static let type = MessageType.adminDeleteUser
    public var username: String
    public init(username: String) { self.username = username }
    public init(from r: inout ByteReader) throws(WireError) { username = try r.readString("username", maxBytes: FieldLimits.username) }
    public func encode(into w: inout ByteWriter) { w.write(username) }
}

/// Admin → server: the snaps awaiting approval (`--moderation queue`), the longest waiting
/// first. Answered by PendingSnaps.
public struct AdminListPending: WireMessage, Equatable {
    public static let type = MessageType.adminListPending
    public init() {}
    public init(from r: inout ByteReader) throws(WireError) {}
    public func encode(into w: inout ByteWriter) {}
}

/// Server → admin: the snaps awaiting approval.
public struct PendingSnaps: WireMessage, Equatable {
    public static let type = MessageType.pendingSnaps
    public var snaps: [ExportedSnap]
    public init(snaps: [ExportedSnap]) { self.snaps = snaps }
    public init(from r: inout ByteReader) throws(WireError) {
        snaps = try r.readRecords("snaps", of: ExportedSnap.self)
    }
    public func encode(into w: inout ByteWriter) { w.writeRecords(snaps) }
}

/// Admin → server: approve a snap awaiting approval (everyone sees it from then on) or reject
/// it (its picture is deleted, and its poster is told, with `reason`). Answered by Ok. Version 4
/// added the reason; an older version's rejection gives none.
public struct AdminApproveSnap: WireMessage, Equatable {
    public static let type = MessageType.adminApproveSnap
    public var snapID: UInt64
    public var approve: Bool
    /// Why it was rejected, for its poster (empty: no reason given; ignored for an approval).
    public var reason: String
    public init(snapID: UInt64, approve: Bool, reason: String = "") {
        self.snapID = snapID
        self.approve = approve
        self.reason = reason
    }
    public init(from r: inout ByteReader) throws(WireError) {
        snapID = try r.readUInt64("snap_id")
        approve = try r.readBool("approve")
        reason = r.protocolVersion >= 4 ? try r.readString("reason", maxBytes: FieldLimits.reason) : ""
    }
    public func encode(into w: inout ByteWriter) {
        w.write(snapID)
        w.write(approve)
        if w.protocolVersion >= 4 { w.write(reason) }
    }
}

/// Admin → server: the class's roster, each name with the account that claimed it. Answered by
/// Roster. Added in version 4.
public struct AdminListRoster: EmptyWireMessage, Equatable {
    public static let type = MessageType.adminListRoster
    public init() {}
}

/// Where a roster name stands.
public enum RosterStatus: UInt8, Sendable, Equatable, CaseIterable {
    /// No account has claimed the name yet: whoever registers it first (with the class code) does.
    case notRegistered = 0
    /// Claimed by an account made by a roster import whose one-time password was never replaced.
    case oneTimePassword = 1
    /// Claimed by an account that has signed in with a password of its own.
    case signedIn = 2
    /// Claimed by an account (made by `admin add`, say) that has not signed in since it was made.
    case notSignedIn = 3

    public var name: String {
        switch self {
        case .notRegistered: "not registered"
        case .oneTimePassword: "one-time password not yet replaced"
        case .signedIn: "signed in"
        case .notSignedIn: "not signed in yet"
        }
    }
}

/// One name of the roster.
public struct RosterMember: Sendable, Equatable, ListedRecord {
    /// The name as the roster lists it (the name its owner registers or was made with).
    public var name: String
    public var displayName: String
    public var isAdmin: Bool
    public var addedAt: Int64
    /// The account that claimed the name, as it is called now (a rename carries the claim along);
    /// empty while nobody has.
    public var account: String
    public var status: RosterStatus
    /// When the account last signed in with a password (0: never, or not since the server recorded it).
    public var lastSignIn: Int64
    public init(name: String, displayName: String, isAdmin: Bool, addedAt: Int64, account: String, status: RosterStatus, lastSignIn: Int64)
    {
        self.name = name
        self.displayName = displayName
        self.isAdmin = isAdmin
        self.addedAt = addedAt
        self.account = account
        self.status = status
        self.lastSignIn = lastSignIn
    }

    static let smallest = RosterMember(
        name: "", displayName: "", isAdmin: false, addedAt: 0, account: "", status: .notRegistered, lastSignIn: 0)

    init(from r: inout ByteReader) throws(WireError) {
        name = try r.readString("member.name", maxBytes: FieldLimits.username)
        displayName = try r.readString("member.display_name", maxBytes: FieldLimits.displayName)
        isAdmin = try r.readBool("member.is_admin")
        addedAt = try r.readInt64("member.added_at")
        account = try r.readString("member.account", maxBytes: FieldLimits.username)
        let raw = try r.readUInt8("member.status")
        guard let status = RosterStatus(rawValue: raw) else { throw WireError.malformed("member.status: unknown value \(raw)") }
        self.status = status
        lastSignIn = try r.readInt64("member.last_sign_in")
    }

    func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(displayName)
        w.write(isAdmin)
        w.write(addedAt)
        w.write(account)
        w.write(status.rawValue)
        w.write(lastSignIn)
    }
}

/// Server → admin: the roster by name (compared as feed names are).
public struct Roster: WireMessage, Equatable {
    public static let type = MessageType.roster
    public var members: [RosterMember]
    public init(members: [RosterMember]) { self.members = members }
    public init(from r: inout ByteReader) throws(WireError) {
        members = try r.readRecords("members", of: RosterMember.self)
    }
    public func encode(into w: inout ByteWriter) { w.writeRecords(members) }
}

/// Admin → server: take `name` off the roster. An account that claimed it keeps its account and
/// its name; the name no longer registers. Answered by Ok. Added in version 4.
public struct AdminRemoveRosterEntry: WireMessage, Equatable {
    public static let type = MessageType.adminRemoveRosterEntry
    public var name: String
    public init(name: String) { self.name = name }
    public init(from r: inout ByteReader) throws(WireError) { name = try r.readString("name", maxBytes: FieldLimits.username) }
    public func encode(into w: inout ByteWriter) { w.write(name) }
}
