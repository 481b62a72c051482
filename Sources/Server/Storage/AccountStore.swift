/// Accounts: users, their password hashes and admin rights, and the `admin users` summary.
/// Used by the login and account handlers, the admin handlers and the offline admin commands.
///
/// Names compare case-insensitively (ASCII) for uniqueness and lookup, and keep the spelling
/// they were created with.
public protocol AccountStore: AnyObject {
    /// Creates a user; throws `StoreError.conflict` when the name is taken.
    func createUser(name: String, passwordHash: String, isAdmin: Bool, at: Int64) throws -> UserRecord
    /// The user with that name (in any case), or nil.
    func user(named name: String) throws -> UserRecord?
    /// The user with that id, or nil.
    func user(id: Int64) throws -> UserRecord?
    /// Inside a transaction: holds the user's row until it ends, so a per-user cap counted after
    /// it (pins) still holds at the commit, however many instances count at once.
    func lockUser(id: Int64) throws
    /// Grants or withdraws the admin right; `StoreError.notFound` when there is no such user.
    func setAdmin(userID: Int64, isAdmin: Bool) throws
    /// Replaces the user's password hash; `StoreError.notFound` when there is no such user.
    func setPasswordHash(userID: Int64, passwordHash: String) throws
    /// Every user with post and view counts, by name.
    func userSummaries() throws -> [UserSummary]
    /// Disables or enables an account; a disable also ends its sessions and device tokens.
    /// `notFound` when there is no such user.
    func setDisabled(userID: Int64, disabled: Bool) throws
    /// Whether the user must change a one-time password before anything else.
    func setMustChangePassword(userID: Int64, _ must: Bool) throws
    /// Gives the user a new name (the rules for names are the caller's); `conflict` when it is
    /// taken, by another user or on the roster for someone else.
    func renameUser(userID: Int64, to name: String) throws
    /// Deletes the user with everything theirs (snaps, views, pins, albums, movies, sessions,
    /// reports); returns what went. `notFound` when there is no such user.
    func deleteUser(userID: Int64) throws -> DeletedUser
    /// Adds or updates a roster entry (names compare ignoring case).
    func putRosterEntry(_ entry: RosterEntry) throws
    /// The roster entry of that name, or nil.
    func rosterEntry(named name: String) throws -> RosterEntry?
}

/// What `AccountStore.deleteUser` removed besides the account.
public struct DeletedUser: Sendable, Equatable {
    public var snaps: Int
    public var pins: Int
    public var movies: Int
}

/// One name of the class's roster: who may register when registration is limited to it.
public struct RosterEntry: Sendable, Equatable {
    public var name: String
    public var displayName: String
    public var isAdmin: Bool
    public var addedAt: Int64
    public init(name: String, displayName: String, isAdmin: Bool, addedAt: Int64) {
        self.name = name; self.displayName = displayName; self.isAdmin = isAdmin; self.addedAt = addedAt
    }
}

/// A stored account.
public struct UserRecord: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var passwordHash: String
    public var isAdmin: Bool
    public var createdAt: Int64
    /// A disabled account keeps its name but cannot log in.
    public var isDisabled: Bool
    /// Set by a roster import: the password is a one-time one, to change before anything else.
    public var mustChangePassword: Bool
    public init(id: Int64, name: String, passwordHash: String, isAdmin: Bool, createdAt: Int64,
                isDisabled: Bool = false, mustChangePassword: Bool = false) {
        self.id = id; self.name = name; self.passwordHash = passwordHash
        self.isAdmin = isAdmin; self.createdAt = createdAt
        self.isDisabled = isDisabled; self.mustChangePassword = mustChangePassword
    }
}

/// One row of `admin users`.
public struct UserSummary: Sendable, Equatable {
    public var name: String
    public var isAdmin: Bool
    public var createdAt: Int64
    public var postCount: Int64
    public var viewCount: Int64
    public init(name: String, isAdmin: Bool, createdAt: Int64, postCount: Int64, viewCount: Int64) {
        self.name = name; self.isAdmin = isAdmin; self.createdAt = createdAt
        self.postCount = postCount; self.viewCount = viewCount
    }
}
