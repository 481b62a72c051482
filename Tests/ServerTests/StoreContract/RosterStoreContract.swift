import Testing

@testable import Server

/// What every engine's `RosterStore` does: entries owned by the account that claimed them,
/// through renames and deletions.
@Suite("Roster store contract")
struct RosterStoreContract {
    static func entry(_ name: String, _ display: String = "") -> RosterEntry {
        RosterEntry(name: name, displayName: display.isEmpty ? name : display, isAdmin: false, addedAt: 7)
    }

    @Test(
        "an entry is claimed by the account of its name, at once or when the account is made; a second put updates it",
        arguments: StoreEngine.all)
    func claims(engine: StoreEngine) throws {
        try engine.withStore { store in
            let dave = try store.createUser(name: "Dave", passwordHash: "h", isAdmin: false, at: 1)
            #expect(try store.putRosterEntry(Self.entry("dave", "Dave D.")) == .claimedByExisting)
            #expect(try store.putRosterEntry(Self.entry("erin")) == .added)
            #expect(try store.rosterEntry(named: "ERIN")?.claimedBy == nil)
            let erin = try store.createUser(name: "erin", passwordHash: "h", isAdmin: false, at: 2)
            #expect(try store.rosterEntry(named: "erin")?.claimedBy == erin.id, "a new account claims its roster name")
            #expect(try store.putRosterEntry(Self.entry("DAVE", "David Dee")) == .updated)
            let members = try store.rosterMembers()
            #expect(members.map(\.entry.name) == ["dave", "erin"])
            #expect(members[0].entry.displayName == "David Dee" && members[0].entry.claimedBy == dave.id && members[0].account == "Dave")
        }
    }

    @Test("a rename carries the entry along: its old name is nobody else's, its owner can always get it back", arguments: StoreEngine.all)
    func renames(engine: StoreEngine) throws {
        try engine.withStore { store in
            try store.putRosterEntry(Self.entry("dave"))
            try store.putRosterEntry(Self.entry("frank"))
            let dave = try store.createUser(name: "dave", passwordHash: "h", isAdmin: false, at: 1)
            let other = try store.createUser(name: "other", passwordHash: "h", isAdmin: false, at: 1)
            try store.renameUser(userID: dave.id, to: "david")
            #expect(try store.rosterMembers().first?.account == "david")
            #expect(storeErrorKind { _ = try store.createUser(name: "DAVE", passwordHash: "h", isAdmin: false, at: 2) } == .conflict)
            #expect(storeErrorKind { try store.renameUser(userID: other.id, to: "dave") } == .conflict, "someone else's claimed name")
            #expect(storeErrorKind { try store.renameUser(userID: other.id, to: "frank") } == .conflict, "someone else's unclaimed name")
            try store.renameUser(userID: dave.id, to: "dave")
            #expect(try store.user(named: "dave")?.id == dave.id)
            // An account holds one roster name: a new entry of its new name is refused.
            try store.renameUser(userID: dave.id, to: "david2")
            #expect(storeErrorKind { try store.putRosterEntry(Self.entry("david2")) } == .conflict)
            #expect(try store.rosterEntry(named: "david2") == nil)
        }
    }

    @Test("deleting the account takes its entry; remove takes one off; clear empties the roster", arguments: StoreEngine.all)
    func removals(engine: StoreEngine) throws {
        try engine.withStore { store in
            for name in ["gus", "hana", "ivan"] { try store.putRosterEntry(Self.entry(name)) }
            let gus = try store.createUser(name: "gus", passwordHash: "h", isAdmin: false, at: 1)
            let hana = try store.createUser(name: "hana", passwordHash: "h", isAdmin: false, at: 1)
            #expect(try store.deleteUser(userID: gus.id).rosterName == "gus")
            #expect(try store.rosterEntry(named: "gus") == nil)
            let removed = try store.removeRosterEntry(named: "HANA")
            #expect(removed.entry.name == "hana" && removed.account == "hana")
            #expect(try store.user(id: hana.id) != nil, "the account stays")
            #expect(storeErrorKind { try store.removeRosterEntry(named: "nobody") } == .notFound)
            #expect(try store.clearRoster() == 1)
            #expect(try store.rosterMembers().isEmpty)
        }
    }

    @Test("a replaced one-time password is remembered; sign-ins are recorded and listed", arguments: StoreEngine.all)
    func oneTimePasswordsAndSignIns(engine: StoreEngine) throws {
        try engine.withStore { store in
            try store.putRosterEntry(Self.entry("kim"))
            let kim = try store.createUser(name: "kim", passwordHash: "one-time", isAdmin: false, at: 1)
            try store.setMustChangePassword(userID: kim.id, true)
            #expect(try store.rosterMembers().first.map { ($0.hasOneTimePassword, $0.lastSignIn) } ?? (false, -1) == (true, 0))
            try store.recordSignIn(userID: kim.id, at: 500)
            try store.setPasswordHash(userID: kim.id, passwordHash: "own")
            let changed = try #require(try store.user(id: kim.id))
            #expect(changed.oneTimeHash == "one-time" && changed.passwordHash == "own" && !changed.mustChangePassword)
            try store.setPasswordHash(userID: kim.id, passwordHash: "another")
            #expect(try store.user(id: kim.id)?.oneTimeHash == "one-time", "only a one-time password is remembered")
            #expect(try store.rosterMembers().first.map { ($0.hasOneTimePassword, $0.lastSignIn) } ?? (true, 0) == (false, 500))
        }
    }
}
