/// Admin → server: create a feed.
public struct AdminCreateFeed: WireMessage, Equatable {
    public static let type = MessageType.adminCreateFeed
    public var name: String
    public init(name: String) { self.name = name }
    public init(from r: inout ByteReader) throws(WireError) { name = try r.readString("name", maxBytes: FieldLimits.feedName) }
    public func encode(into w: inout ByteWriter) { w.write(name) }
}

/// Admin → server: delete a feed with all its snaps.
public struct AdminDeleteFeed: WireMessage, Equatable {
    public static let type = MessageType.adminDeleteFeed
    public var name: String
    public init(name: String) { self.name = name }
    public init(from r: inout ByteReader) throws(WireError) { name = try r.readString("name", maxBytes: FieldLimits.feedName) }
    public func encode(into w: inout ByteWriter) { w.write(name) }
}

/// Admin → server: delete the snaps of one feed (`allFeeds` false, `name` set) or of every
/// feed (`allFeeds` true, `name` empty). Answered by Count.
public struct AdminResetFeeds: WireMessage, Equatable {
    public static let type = MessageType.adminResetFeeds
    public var allFeeds: Bool
    public var name: String
    public init(allFeeds: Bool, name: String) {
        self.allFeeds = allFeeds
        self.name = name
    }
    public init(from r: inout ByteReader) throws(WireError) {
        allFeeds = try r.readBool("all_feeds")
        name = try r.readString("name", maxBytes: FieldLimits.feedName)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(allFeeds)
        w.write(name)
    }
}

/// Server → client: how many things an operation affected.
public struct Count: WireMessage, Equatable {
    public static let type = MessageType.count
    public var count: UInt64
    public init(count: UInt64) { self.count = count }
    public init(from r: inout ByteReader) throws(WireError) { count = try r.readUInt64("count") }
    public func encode(into w: inout ByteWriter) { w.write(count) }
}

/// Admin → server: delete one snap.
public struct AdminDeleteSnap: WireMessage, Equatable {
    public static let type = MessageType.adminDeleteSnap
    public var snapID: UInt64
    public init(snapID: UInt64) { self.snapID = snapID }
    public init(from r: inout ByteReader) throws(WireError) { snapID = try r.readUInt64("snap_id") }
    public func encode(into w: inout ByteWriter) { w.write(snapID) }
}

/// Admin → server: give one user one more view of a snap.
public struct AdminRestoreView: WireMessage, Equatable {
    public static let type = MessageType.adminRestoreView
    public var snapID: UInt64
    public var username: String
    public init(snapID: UInt64, username: String) {
        self.snapID = snapID
        self.username = username
    }
    public init(from r: inout ByteReader) throws(WireError) {
        snapID = try r.readUInt64("snap_id")
        username = try r.readString("username", maxBytes: FieldLimits.username)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(snapID)
        w.write(username)
    }
}

/// Admin → server: list the accounts.
public struct AdminListUsers: EmptyWireMessage, Equatable {
    public static let type = MessageType.adminListUsers
    public init() {}
}

/// One account as `admin users` shows it.
public struct UserInfo: Sendable, Equatable, ListedRecord {
    public var username: String
    public var isAdmin: Bool
    public var createdAt: Int64
    public var postCount: UInt64
    public var viewCount: UInt64
    // Version 4 added the rest; a Users read in an older version leaves them empty.
    /// The roster's display name of the account's roster entry, empty when it has none.
    public var displayName: String = ""
    /// The roster name the account claimed (it stays when the account is renamed), empty when none.
    public var rosterName: String = ""
    public var isDisabled = false
    /// Still on the one-time password of a roster import.
    public var hasOneTimePassword = false
    /// When a suspension in force ends (0: not suspended).
    public var suspendedUntil: Int64 = 0
    /// When the account last signed in with a password (0: never, or not since the server recorded it).
    public var lastSignIn: Int64 = 0
    public init(username: String, isAdmin: Bool, createdAt: Int64, postCount: UInt64, viewCount: UInt64) {
        self.username = username
        self.isAdmin = isAdmin
        self.createdAt = createdAt
        self.postCount = postCount
        self.viewCount = viewCount
    }

    static let smallest = UserInfo(username: "", isAdmin: false, createdAt: 0, postCount: 0, viewCount: 0)

    init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("user.username", maxBytes: FieldLimits.username)
        isAdmin = try r.readBool("user.is_admin")
        createdAt = try r.readInt64("user.created_at")
        postCount = try r.readUInt64("user.post_count")
        viewCount = try r.readUInt64("user.view_count")
        guard r.protocolVersion >= 4 else { return }
        displayName = try r.readString("user.display_name", maxBytes: FieldLimits.displayName)
        rosterName = try r.readString("user.roster_name", maxBytes: FieldLimits.username)
        isDisabled = try r.readBool("user.disabled")
        hasOneTimePassword = try r.readBool("user.one_time_password")
        suspendedUntil = try r.readInt64("user.suspended_until")
        lastSignIn = try r.readInt64("user.last_sign_in")
    }

    func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(isAdmin)
        w.write(createdAt)
        w.write(postCount)
        w.write(viewCount)
        guard w.protocolVersion >= 4 else { return }
        w.write(displayName)
        w.write(rosterName)
        w.write(isDisabled)
        w.write(hasOneTimePassword)
        w.write(suspendedUntil)
        w.write(lastSignIn)
    }
}

/// Server → client: the accounts, by name.
public struct Users: WireMessage, Equatable {
    public static let type = MessageType.users
    public var users: [UserInfo]
    public init(users: [UserInfo]) { self.users = users }
    public init(from r: inout ByteReader) throws(WireError) {
        users = try r.readRecords("users", of: UserInfo.self)
    }
    public func encode(into w: inout ByteWriter) { w.writeRecords(users) }
}

/// Admin → server: server counters.
public struct AdminStats: EmptyWireMessage, Equatable {
    public static let type = MessageType.adminStats
    public init() {}
}

/// One named counter.
public struct StatEntry: Sendable, Equatable, ListedRecord {
    public var name: String
    public var value: Int64
    public init(name: String, value: Int64) {
        self.name = name
        self.value = value
    }
    static let smallest = StatEntry(name: "", value: 0)

    init(from r: inout ByteReader) throws(WireError) {
        name = try r.readString("entry.name", maxBytes: FieldLimits.statisticName)
        value = try r.readInt64("entry.value")
    }

    func encode(into w: inout ByteWriter) {
        w.write(name)
        w.write(value)
    }
}

/// Server → client: named counters, in a stable order.
public struct Stats: WireMessage, Equatable {
    public static let type = MessageType.stats
    public var entries: [StatEntry]
    public init(entries: [StatEntry]) { self.entries = entries }
    public init(from r: inout ByteReader) throws(WireError) {
        entries = try r.readRecords("entries", of: StatEntry.self)
    }
    public func encode(into w: inout ByteWriter) { w.writeRecords(entries) }
}

/// Admin → server: lift the login throttle of one user name (every address's failures for it
/// and its delays). Answered by Count: how many throttle entries held failures.
public struct AdminUnlock: WireMessage, Equatable {
    public static let type = MessageType.adminUnlock
    public var username: String
    public init(username: String) { self.username = username }
    public init(from r: inout ByteReader) throws(WireError) { username = try r.readString("username", maxBytes: FieldLimits.username) }
    public func encode(into w: inout ByteWriter) { w.write(username) }
}

/// Admin → server: lift the failed-login and class-code budgets of one IP address (a class behind
/// one address that ran out of tries). Answered by Count: how many budgets held failures.
public struct AdminUnlockAddress: WireMessage, Equatable {
    public static let type = MessageType.adminUnlockAddress
    public var address: String
    public init(address: String) { self.address = address }
    public init(from r: inout ByteReader) throws(WireError) { address = try r.readString("address", maxBytes: FieldLimits.address) }
    public func encode(into w: inout ByteWriter) { w.write(address) }
}

/// Admin → server: grant (`isAdmin` true) or take away an admin right. Taking it away applies
/// to the user's live connections at once. Answered by Ok.
public struct AdminSetAdmin: WireMessage, Equatable {
    public static let type = MessageType.adminSetAdmin
    public var username: String
    public var isAdmin: Bool
    public init(username: String, isAdmin: Bool) {
        self.username = username
        self.isAdmin = isAdmin
    }
    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        isAdmin = try r.readBool("is_admin")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(isAdmin)
    }
}

/// Admin → server: set a user's password without making them an admin. Every session of the
/// user ends (their connections close); they log in with the new password. Answered by Ok.
public struct AdminResetPassword: WireMessage, Equatable {
    public static let type = MessageType.adminResetPassword
    public var username: String
    public var newPassword: String
    public init(username: String, newPassword: String) {
        self.username = username
        self.newPassword = newPassword
    }
    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        newPassword = try r.readString("new_password", maxBytes: FieldLimits.password)
    }
    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(newPassword)
    }
}

/// Admin → server: the audit log from `since` (Unix milliseconds; 0 for all), oldest first, at
/// most `limit` entries (the server caps it at 5,000). Answered by AuditLog.
public struct AdminAuditLog: WireMessage, Equatable {
    public static let type = MessageType.adminAuditLog
    public var since: Int64
    public var limit: UInt32
    public init(since: Int64, limit: UInt32) {
        self.since = since
        self.limit = limit
    }
    public init(from r: inout ByteReader) throws(WireError) {
        since = try r.readInt64("since")
        limit = try r.readUInt32("limit")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(since)
        w.write(limit)
    }
}

/// One admin action: when (Unix milliseconds), who, what, its target and its result.
public struct AuditRecord: Sendable, Equatable, ListedRecord {
    public var at: Int64
    public var actor: String
    public var action: String
    public var target: String
    public var result: String
    public init(at: Int64, actor: String, action: String, target: String, result: String) {
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.result = result
    }
    static let smallest = AuditRecord(at: 0, actor: "", action: "", target: "", result: "")

    init(from r: inout ByteReader) throws(WireError) {
        at = try r.readInt64("entry.at")
        actor = try r.readString("entry.actor", maxBytes: FieldLimits.auditText)
        action = try r.readString("entry.action", maxBytes: FieldLimits.auditText)
        target = try r.readString("entry.target", maxBytes: FieldLimits.auditText)
        result = try r.readString("entry.result", maxBytes: FieldLimits.auditText)
    }

    func encode(into w: inout ByteWriter) {
        w.write(at)
        w.write(actor)
        w.write(action)
        w.write(target)
        w.write(result)
    }
}

/// Server → admin: audit log entries, oldest first.
public struct AuditLog: WireMessage, Equatable {
    public static let type = MessageType.auditLog
    public var entries: [AuditRecord]
    public init(entries: [AuditRecord]) { self.entries = entries }
    public init(from r: inout ByteReader) throws(WireError) {
        entries = try r.readRecords("entries", of: AuditRecord.self)
    }
    public func encode(into w: inout ByteWriter) {
        w.writeRecords(entries)
    }
}
