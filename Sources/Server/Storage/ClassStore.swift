/// Classes and who is in them: a class's record and settings, and each account's memberships,
/// each with a role. Used by the class handlers, joining and registration, and the admission of
/// a request into a class.
///
/// Handles are lower-case (`cs193p-f26`) and compared exactly; a class code is compared exactly.
/// The oldest membership of an account is its default class (the one an older client acts on).
package protocol ClassStore: AnyObject {
    /// Makes a class, and makes `ownerID` its owner from `at` when given. `StoreError.conflict`
    /// when its handle or its code is another class's.
    func createClass(_ new: NewClass, ownerID: Int64?, at: Int64) throws -> ClassRecord
    /// The class with that id, handle or join code, or nil.
    func classRecord(id: Int64) throws -> ClassRecord?
    func classRecord(handle: String) throws -> ClassRecord?
    func classRecord(code: String) throws -> ClassRecord?
    /// The oldest class without a code of its own, which the server's `--class-code` opens, or nil.
    func classTakingServerCode() throws -> ClassRecord?
    /// The oldest class, or nil on a server without one.
    func firstClass() throws -> ClassRecord?
    /// Every class, by handle.
    func allClasses() throws -> [ClassRecord]
    /// The classes of an account with its role in each, oldest membership first: the first is
    /// its default class.
    func memberships(userID: Int64) throws -> [ClassMembership]
    /// The account's role in the class, or nil when it is not a member.
    func role(userID: Int64, classID: Int64) throws -> ClassRole?
    /// The class's members, staff first (owners, instructors, TAs), then by name.
    func members(classID: Int64) throws -> [ClassMember]
    /// Adds the account to the class with `role` (true), or gives a member that role (false).
    /// `StoreError.conflict` when that would leave the class without an owner.
    @discardableResult
    func setMember(userID: Int64, classID: Int64, role: ClassRole, at: Int64) throws -> Bool
    /// Takes the account out of the class: `StoreError.notFound` when it is not a member,
    /// `StoreError.conflict` when it is the class's last owner.
    func removeMember(userID: Int64, classID: Int64) throws
    /// How many live snaps `viewerID` has not opened in each class they are a member of (their
    /// own and those awaiting approval aside), by class id; a class with none is left out.
    func unreadCounts(viewerID: Int64, now: Int64) throws -> [Int64: Int64]
}

extension ClassStore {
    /// The class an account acts in when it has not chosen one (every client before protocol
    /// version 5): its oldest membership's, with its role there; for a site admin who is in no
    /// class, the oldest class, with no role of their own (they act as its owner). Nil for an
    /// account in no class.
    package func defaultClass(userID: Int64, isSiteAdmin: Bool) throws -> CurrentClass? {
        if let first = try memberships(userID: userID).first {
            return CurrentClass(id: first.classRecord.id, handle: first.classRecord.handle, role: first.role)
        }
        guard isSiteAdmin, let first = try firstClass() else { return nil }
        return CurrentClass(id: first.id, handle: first.handle, role: nil)
    }

    /// The class a join code opens: the class with that code, else, when it is the server's
    /// `--class-code`, the class that takes it. Nil when it opens none.
    package func classOpened(byCode code: String, serverCode: String?) throws -> ClassRecord? {
        if let record = try classRecord(code: code) { return record }
        guard let serverCode, !serverCode.isEmpty, code == serverCode else { return nil }
        return try classTakingServerCode()
    }
}

/// A class to make.
package struct NewClass: Sendable, Equatable {
    package var handle: String
    package var name: String
    /// Its join code; nil only for a class that takes the server's (`--class-code`).
    package var code: String?
    package var settings = ClassSettings()

    package init(handle: String, name: String, code: String?, settings: ClassSettings = ClassSettings()) {
        self.handle = handle
        self.name = name
        self.code = code
        self.settings = settings
    }
}

/// What a class sets for itself; nil in each: the server's setting.
package struct ClassSettings: Sendable, Equatable {
    package var registration: RegistrationMode?
    package var moderation: ModerationMode?
    package var snapTTLMilliseconds: Int64?
    package var postsPerHour: Int?
    package var storedBytes: Int64?

    package init(
        registration: RegistrationMode? = nil, moderation: ModerationMode? = nil, snapTTLMilliseconds: Int64? = nil,
        postsPerHour: Int? = nil, storedBytes: Int64? = nil
    ) {
        self.registration = registration
        self.moderation = moderation
        self.snapTTLMilliseconds = snapTTLMilliseconds
        self.postsPerHour = postsPerHour
        self.storedBytes = storedBytes
    }
}

/// A class as stored.
package struct ClassRecord: Sendable, Equatable {
    package var id: Int64
    package var handle: String
    package var name: String
    package var code: String?
    package var settings: ClassSettings
    package var createdAt: Int64
    /// When its term ended; 0 while it runs.
    package var endedAt: Int64

    /// Whether its term has ended (it is read-only).
    package var hasEnded: Bool { endedAt > 0 }
}

/// One of an account's classes, with its role there.
package struct ClassMembership: Sendable, Equatable {
    package var classRecord: ClassRecord
    package var role: ClassRole
    package var joinedAt: Int64
}

/// One member of a class.
package struct ClassMember: Sendable, Equatable {
    package var userID: Int64
    package var name: String
    package var role: ClassRole
    package var joinedAt: Int64
}
