/// Each class's roster: the names that may register (and join) when the class's registration is
/// limited to it, each owned by the account that claimed it. Every call names the class. Used by
/// registration, the roster import, `admin roster`, renames, deletions and the end of term.
///
/// A claim is by account id, not by name: a rename carries the entry along, so nobody else can
/// register the roster name the account was renamed away from, and the account can always get
/// its own name back; deleting the account deletes its entry (the schema's ON DELETE CASCADE).
/// Names compare case-insensitively (ASCII).
package protocol RosterStore: AnyObject {
    /// Adds an entry, or updates the display name and role of the entry of that name (its claim
    /// stays). A new entry is claimed at once by the account of the same name, if there is one;
    /// `StoreError.conflict` when that account already holds another roster name.
    @discardableResult
    func putRosterEntry(_ entry: RosterEntry, classID: Int64) throws -> RosterPut
    /// The class's roster entry of that name, or nil.
    func rosterEntry(named name: String, classID: Int64) throws -> RosterEntry?
    /// The account claims the class's unclaimed roster entry of its name (joining the class);
    /// returns the entry as it is then (claimed by whoever holds it), or nil when there is none.
    func claimRosterEntry(named name: String, classID: Int64, userID: Int64) throws -> RosterEntry?
    /// The class's whole roster by name, each entry with its claimant's account as it is now.
    func rosterMembers(classID: Int64) throws -> [RosterMemberRecord]
    /// Takes the entry of that name off the class's roster (its claimant keeps their account);
    /// returns it. `notFound` when there is none.
    @discardableResult
    func removeRosterEntry(named name: String, classID: Int64) throws -> RosterMemberRecord
    /// Empties the class's roster (every class's when nil); returns how many entries went.
    func clearRoster(classID: Int64?) throws -> Int
}

/// What `RosterStore.putRosterEntry` did.
package enum RosterPut: Sendable, Equatable {
    /// A new entry nobody has claimed yet.
    case added
    /// A new entry, claimed by the existing account of the same name.
    case claimedByExisting
    /// The entry was there already: its display name and role were updated, its claim kept.
    case updated
}

/// One name of the class's roster: who may register when registration is limited to it.
package struct RosterEntry: Sendable, Equatable {
    package var name: String
    package var displayName: String
    package var isAdmin: Bool
    package var addedAt: Int64
    /// The account that claimed the entry (by registering it, or made by an import or `admin add`), or nil.
    var claimedBy: Int64?
    package init(name: String, displayName: String, isAdmin: Bool, addedAt: Int64, claimedBy: Int64? = nil) {
        self.name = name
        self.displayName = displayName
        self.isAdmin = isAdmin
        self.addedAt = addedAt
        self.claimedBy = claimedBy
    }
}

/// A roster entry as `admin roster` shows it: with its claimant as the account is now.
package struct RosterMemberRecord: Sendable, Equatable {
    var entry: RosterEntry
    /// The claimant's name now (a rename shows here), or nil while nobody has claimed the entry.
    var account: String?
    /// The claimant still holds the one-time password of a roster import.
    var hasOneTimePassword: Bool
    /// When the claimant last signed in with a password (0: never, or not since the server recorded it).
    var lastSignIn: Int64
}
