/// A role in a class, as the wire names it (docs/PROTOCOL.md, section 5.8).
public enum ClassRoleName: UInt8, Sendable, Equatable, CaseIterable {
    /// Not a member: a site admin acting in the class (as its owner).
    case none = 0
    case student = 1
    case ta = 2
    case instructor = 3
    case owner = 4

    /// The role's name (`ta`); `site admin` for `none`.
    public var name: String {
        switch self {
        case .none: "site admin"
        case .student: "student"
        case .ta: "ta"
        case .instructor: "instructor"
        case .owner: "owner"
        }
    }

    /// The role a name says (`owner`, `instructor`, `ta`, `student`), or nil.
    public init?(name: String) {
        guard let role = Self.allCases.first(where: { $0 != .none && $0.name == name }) else { return nil }
        self = role
    }

    init(reading r: inout ByteReader, _ field: StaticString) throws(WireError) {
        let raw = try r.readUInt8(field)
        guard let role = Self(rawValue: raw) else { throw WireError.malformed("\(field): unknown role \(raw)") }
        self = role
    }
}

/// One class as its member sees it.
public struct ClassInfo: Sendable, Equatable, ListedRecord {
    public var handle: String
    public var name: String
    /// The member's role there (`none` for a site admin who is not a member).
    public var role: ClassRoleName
    /// The connection acts in this class.
    public var isCurrent: Bool
    /// Live snaps there the member has not opened (their own and those awaiting approval aside).
    public var unreadCount: UInt32
    /// The class's term has ended: it is read-only.
    public var hasEnded: Bool

    public init(handle: String, name: String, role: ClassRoleName, isCurrent: Bool, unreadCount: UInt32, hasEnded: Bool) {
        self.handle = handle
        self.name = name
        self.role = role
        self.isCurrent = isCurrent
        self.unreadCount = unreadCount
        self.hasEnded = hasEnded
    }

    static let smallest = ClassInfo(handle: "", name: "", role: .none, isCurrent: false, unreadCount: 0, hasEnded: false)

    init(from r: inout ByteReader) throws(WireError) {
        handle = try r.readString("class.handle", maxBytes: FieldLimits.classHandle)
        name = try r.readString("class.name", maxBytes: FieldLimits.className)
        role = try ClassRoleName(reading: &r, "class.role")
        isCurrent = try r.readBool("class.is_current")
        unreadCount = try r.readUInt32("class.unread_count")
        hasEnded = try r.readBool("class.has_ended")
    }

    func encode(into w: inout ByteWriter) {
        w.write(handle)
        w.write(name)
        w.write(role.rawValue)
        w.write(isCurrent)
        w.write(unreadCount)
        w.write(hasEnded)
    }
}

/// Client → server: the account's classes. Answered by Classes. Added in version 5.
public struct ListClasses: EmptyWireMessage, Equatable {
    public static let type = MessageType.listClasses
    public init() {}
}

/// Server → client: the account's classes, the oldest membership first (a site admin's: every
/// class they are not a member of after them, by handle).
public struct Classes: WireMessage, Equatable {
    public static let type = MessageType.classes
    public var classes: [ClassInfo]
    public init(classes: [ClassInfo]) { self.classes = classes }
    public init(from r: inout ByteReader) throws(WireError) { classes = try r.readRecords("classes", of: ClassInfo.self) }
    public func encode(into w: inout ByteWriter) { w.writeRecords(classes) }
}

/// Client → server: act in the class `handle` from now on, on this connection. Answered by
/// ClassChosen; `NOT_FOUND` for a class the account is not in. Added in version 5.
public struct UseClass: WireMessage, Equatable {
    public static let type = MessageType.useClass
    public var handle: String
    public init(handle: String) { self.handle = handle }
    public init(from r: inout ByteReader) throws(WireError) { handle = try r.readString("handle", maxBytes: FieldLimits.classHandle) }
    public func encode(into w: inout ByteWriter) { w.write(handle) }
}

/// Client → server: join the class `code` opens, and act in it from now on. Answered by
/// ClassChosen; `BAD_CLASS_CODE` (throttled) when it opens none. Added in version 5.
public struct JoinClass: WireMessage, Equatable {
    public static let type = MessageType.joinClass
    public var code: String
    public init(code: String) { self.code = code }
    public init(from r: inout ByteReader) throws(WireError) { code = try r.readString("code", maxBytes: FieldLimits.classCode) }
    public func encode(into w: inout ByteWriter) { w.write(code) }
}

/// Server → client: the class the connection acts in now.
public struct ClassChosen: WireMessage, Equatable {
    public static let type = MessageType.classChosen
    public var chosen: ClassInfo
    public init(chosen: ClassInfo) { self.chosen = chosen }
    public init(from r: inout ByteReader) throws(WireError) { chosen = try ClassInfo(from: &r) }
    public func encode(into w: inout ByteWriter) { chosen.encode(into: &w) }
}

/// One member of a class.
public struct ClassMemberInfo: Sendable, Equatable, ListedRecord {
    public var username: String
    public var role: ClassRoleName
    public var joinedAt: Int64

    public init(username: String, role: ClassRoleName, joinedAt: Int64) {
        self.username = username
        self.role = role
        self.joinedAt = joinedAt
    }

    static let smallest = ClassMemberInfo(username: "", role: .none, joinedAt: 0)

    init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("member.username", maxBytes: FieldLimits.username)
        role = try ClassRoleName(reading: &r, "member.role")
        joinedAt = try r.readInt64("member.joined_at")
    }

    func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(role.rawValue)
        w.write(joinedAt)
    }
}

/// Staff → server: the class's members, staff first. Answered by Members. Added in version 5.
public struct AdminListMembers: EmptyWireMessage, Equatable {
    public static let type = MessageType.adminListMembers
    public init() {}
}

/// Server → staff: the class's members, owners, instructors and TAs first, then by name.
public struct Members: WireMessage, Equatable {
    public static let type = MessageType.members
    public var members: [ClassMemberInfo]
    public init(members: [ClassMemberInfo]) { self.members = members }
    public init(from r: inout ByteReader) throws(WireError) { members = try r.readRecords("members", of: ClassMemberInfo.self) }
    public func encode(into w: inout ByteWriter) { w.writeRecords(members) }
}

/// Staff → server: give `username` the role `role` in the class (adding them to it when they
/// are not in it). Answered by Ok. Added in version 5.
public struct AdminSetRole: WireMessage, Equatable {
    public static let type = MessageType.adminSetRole
    public var username: String
    public var role: ClassRoleName
    public init(username: String, role: ClassRoleName) {
        self.username = username
        self.role = role
    }
    public init(from r: inout ByteReader) throws(WireError) {
        username = try r.readString("username", maxBytes: FieldLimits.username)
        role = try ClassRoleName(reading: &r, "role")
    }
    public func encode(into w: inout ByteWriter) {
        w.write(username)
        w.write(role.rawValue)
    }
}

/// Staff → server: take `username` out of the class (their account stays). Answered by Ok.
/// Added in version 5.
public struct AdminRemoveMember: WireMessage, Equatable {
    public static let type = MessageType.adminRemoveMember
    public var username: String
    public init(username: String) { self.username = username }
    public init(from r: inout ByteReader) throws(WireError) { username = try r.readString("username", maxBytes: FieldLimits.username) }
    public func encode(into w: inout ByteWriter) { w.write(username) }
}
