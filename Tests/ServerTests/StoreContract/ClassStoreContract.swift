import Testing

@testable import Server

/// What every engine's `ClassStore` does: classes by handle and code, memberships with roles,
/// and a class never left without an owner.
@Suite("Class store contract")
struct ClassStoreContract {
    static let fall = NewClass(handle: "cs193p-f26", name: "CS193P Fall 2026", code: "JOIN-F26")

    @Test("a new store holds one class, the one every upgraded server's data becomes, with no code of its own", arguments: StoreEngine.all)
    func firstClass(engine: StoreEngine) throws {
        try engine.withStore { store in
            let classes = try store.allClasses()
            #expect(classes.map(\.handle) == ["class"])
            #expect(classes.first?.name == "Class" && classes.first?.code == nil && classes.first?.settings == ClassSettings())
            #expect(classes.first?.hasEnded == false)
        }
    }

    @Test(
        "a class is made with its owner and its settings, found by id, handle and code; a handle or code taken is refused",
        arguments: StoreEngine.all)
    func makeAndFind(engine: StoreEngine) throws {
        try engine.withStore { store in
            let owner = try store.createUser(name: "prof", passwordHash: "h", isAdmin: false, at: 1)
            var new = Self.fall
            new.settings = ClassSettings(
                registration: .roster, moderation: .queue, snapTTLMilliseconds: 3_600_000, postsPerHour: 5, storedBytes: 1 << 40)
            let made = try store.createClass(new, ownerID: owner.id, at: 50)
            #expect(made.handle == "cs193p-f26" && made.name == "CS193P Fall 2026" && made.code == "JOIN-F26")
            #expect(made.settings == new.settings && made.createdAt == 50 && made.endedAt == 0)
            #expect(try store.classRecord(id: made.id) == made)
            #expect(try store.classRecord(handle: "cs193p-f26") == made)
            #expect(try store.classRecord(code: "JOIN-F26") == made)
            #expect(try store.classRecord(code: "join-f26") == nil, "codes are exact")
            #expect(try store.classRecord(handle: "cs193p") == nil)
            #expect(try store.role(userID: owner.id, classID: made.id) == .owner)

            let sameHandle = NewClass(handle: "cs193p-f26", name: "Other", code: "OTHER-1")
            #expect(storeErrorKind { _ = try store.createClass(sameHandle, ownerID: nil, at: 51) } == .conflict)
            let sameCode = NewClass(handle: "cs193p-w27", name: "Other", code: "JOIN-F26")
            #expect(storeErrorKind { _ = try store.createClass(sameCode, ownerID: nil, at: 51) } == .conflict)
            let next = try store.createClass(
                NewClass(handle: "cs193p-w27", name: "CS193P Winter 2027", code: "JOIN-W27"), ownerID: nil, at: 52)
            #expect(next.settings == ClassSettings() && next.id > made.id)
            #expect(try store.allClasses().map(\.handle) == ["class", "cs193p-f26", "cs193p-w27"])
        }
    }

    @Test("an account's classes come oldest membership first, each with its role; members list staff first", arguments: StoreEngine.all)
    func memberships(engine: StoreEngine) throws {
        try engine.withStore { store in
            let prof = try store.createUser(name: "prof", passwordHash: "h", isAdmin: false, at: 1)
            let ann = try store.createUser(name: "ann", passwordHash: "h", isAdmin: false, at: 1)
            let zed = try store.createUser(name: "Zed", passwordHash: "h", isAdmin: false, at: 1)
            let tara = try store.createUser(name: "tara", passwordHash: "h", isAdmin: false, at: 1)
            let fall = try store.createClass(Self.fall, ownerID: prof.id, at: 10)
            let lab = try store.createClass(NewClass(handle: "lab", name: "Lab", code: "LAB-CODE"), ownerID: prof.id, at: 20)
            #expect(try store.setMember(userID: zed.id, classID: lab.id, role: .student, at: 30))
            #expect(try store.setMember(userID: zed.id, classID: fall.id, role: .student, at: 40))
            #expect(try store.setMember(userID: ann.id, classID: fall.id, role: .student, at: 41))
            #expect(try store.setMember(userID: tara.id, classID: fall.id, role: .student, at: 42))
            let added = try store.setMember(userID: tara.id, classID: fall.id, role: .ta, at: 43)
            #expect(added == false, "a role changed, not a second membership")

            let zeds = try store.memberships(userID: zed.id)
            #expect(zeds.map(\.classRecord.handle) == ["lab", "cs193p-f26"], "the oldest membership is the default class")
            #expect(zeds.map(\.role) == [.student, .student] && zeds.map(\.joinedAt) == [30, 40])
            #expect(try store.memberships(userID: prof.id).map(\.role) == [.owner, .owner])

            let members = try store.members(classID: fall.id)
            #expect(members.map(\.name) == ["prof", "tara", "ann", "Zed"])
            #expect(members.map(\.role) == [.owner, .ta, .student, .student])
            #expect(members[1].joinedAt == 42, "a new role keeps the day they joined")
            #expect(try store.role(userID: ann.id, classID: lab.id) == nil)

            try store.removeMember(userID: zed.id, classID: lab.id)
            #expect(try store.memberships(userID: zed.id).map(\.classRecord.handle) == ["cs193p-f26"])
            #expect(storeErrorKind { try store.removeMember(userID: zed.id, classID: lab.id) } == .notFound)

            _ = try store.deleteUser(userID: ann.id)
            let left = try store.members(classID: fall.id).map(\.name)
            #expect(left == ["prof", "tara", "Zed"], "a deleted account's memberships go with it")
        }
    }

    @Test("the last owner can neither leave nor step down; with a second owner either can", arguments: StoreEngine.all)
    func lastOwner(engine: StoreEngine) throws {
        try engine.withStore { store in
            let prof = try store.createUser(name: "prof", passwordHash: "h", isAdmin: false, at: 1)
            let coprof = try store.createUser(name: "coprof", passwordHash: "h", isAdmin: false, at: 1)
            let fall = try store.createClass(Self.fall, ownerID: prof.id, at: 10)
            #expect(storeErrorKind { try store.removeMember(userID: prof.id, classID: fall.id) } == .conflict)
            #expect(storeErrorKind { try store.setMember(userID: prof.id, classID: fall.id, role: .instructor, at: 11) } == .conflict)
            #expect(try store.role(userID: prof.id, classID: fall.id) == .owner, "a refused change changes nothing")

            try store.setMember(userID: coprof.id, classID: fall.id, role: .owner, at: 12)
            try store.setMember(userID: prof.id, classID: fall.id, role: .instructor, at: 13)
            #expect(storeErrorKind { try store.removeMember(userID: coprof.id, classID: fall.id) } == .conflict)
            try store.setMember(userID: prof.id, classID: fall.id, role: .owner, at: 14)
            try store.removeMember(userID: coprof.id, classID: fall.id)
            #expect(try store.members(classID: fall.id).map(\.name) == ["prof"])
        }
    }

    @Test("roles are ordered from student to owner")
    func roleOrder() {
        #expect(ClassRole.allCases.sorted() == [.student, .ta, .instructor, .owner])
        #expect(ClassRole.ta < .instructor && !(ClassRole.owner < .owner))
    }
}
