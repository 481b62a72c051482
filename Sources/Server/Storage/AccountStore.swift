/// Accounts: users, their password hashes and admin rights, and the `admin users` summary.
/// Used by the login and account handlers, the admin handlers and the offline admin commands.
///
/// Names compare case-insensitively (ASCII) for uniqueness and lookup, and keep the spelling
/// they were created with.
package protocol AccountStore: AnyObject {
    /// Creates a user, who claims the unclaimed roster entry of the same name if there is one;
    /// throws `StoreError.conflict` when the name is taken, or is a roster name another account
    /// has claimed (renamed away from it).
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
    /// Replaces the user's password hash; `StoreError.notFound` when there is no such user. A
    /// one-time password replaced so is remembered (`UserRecord.oneTimeHash`), never to be chosen again.
    func setPasswordHash(userID: Int64, passwordHash: String) throws
    /// Records a sign-in with a password (a login or a registration) at `at`.
    func recordSignIn(userID: Int64, at: Int64) throws
    /// The same password hashed again at today's cost: replaces `old` with `new` only while the
    /// stored hash is still `old` (a password changed meanwhile stays), and changes nothing else
    /// (a one-time password stays one). Returns whether it replaced it.
    func rehashPassword(userID: Int64, from old: String, to new: String) throws -> Bool
    /// Every member of the class and every site admin (every user when nil) with their posts and
    /// views there, roster entry and state there (as of `now`), by name.
    func userSummaries(classID: Int64?, now: Int64) throws -> [UserSummary]
    /// Disables or enables an account; a disable also ends its sessions and device tokens.
    /// `notFound` when there is no such user.
    func setDisabled(userID: Int64, disabled: Bool) throws
    /// Whether the user must change a one-time password before anything else.
    func setMustChangePassword(userID: Int64, _ must: Bool) throws
    /// Gives the user a new name (the rules for names are the caller's); their roster entry, if
    /// any, stays theirs. `conflict` when the name is taken, or is on the roster for someone else
    /// (claimed by another account, or by nobody yet).
    func renameUser(userID: Int64, to name: String) throws
    /// Deletes the user with everything theirs (snaps, views, pins, albums, movies, sessions,
    /// reports, their roster entry); returns what went. `notFound` when there is no such user.
    func deleteUser(userID: Int64) throws -> DeletedUser
}

/// What `AccountStore.deleteUser` removed besides the account.
package struct DeletedUser: Sendable, Equatable {
    var snaps: Int
    var pins: Int
    var movies: Int
    /// The roster name the account had claimed, now off the roster.
    var rosterName: String?
}

/// A stored account.
package struct UserRecord: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var passwordHash: String
    package var isAdmin: Bool
    var createdAt: Int64
    /// A disabled account keeps its name but cannot log in.
    var isDisabled: Bool
    /// Set by a roster import: the password is a one-time one, to change before anything else.
    package var mustChangePassword: Bool
    /// The hash of the one-time password the account was given, once replaced (empty before, and
    /// for accounts that never had one): a new password may not be it.
    var oneTimeHash: String
    init(
        id: Int64, name: String, passwordHash: String, isAdmin: Bool, createdAt: Int64,
        isDisabled: Bool = false, mustChangePassword: Bool = false, oneTimeHash: String = ""
    ) {
        self.id = id
        self.name = name
        self.passwordHash = passwordHash
        self.isAdmin = isAdmin
        self.createdAt = createdAt
        self.isDisabled = isDisabled
        self.mustChangePassword = mustChangePassword
        self.oneTimeHash = oneTimeHash
    }
}

/// One row of `admin users`.
package struct UserSummary: Sendable, Equatable {
    package var name: String
    package var isAdmin: Bool
    var createdAt: Int64
    var postCount: Int64
    var viewCount: Int64
    /// The display name and the name of the roster entry the account claimed (empty when none).
    var displayName = ""
    var rosterName = ""
    var isDisabled = false
    package var mustChangePassword = false
    /// When a suspension in force ends (0: none at the time of the listing).
    var suspendedUntil: Int64 = 0
    /// When the account last signed in with a password (0: never, or not since it was recorded).
    var lastSignIn: Int64 = 0
    init(name: String, isAdmin: Bool, createdAt: Int64, postCount: Int64, viewCount: Int64) {
        self.name = name
        self.isAdmin = isAdmin
        self.createdAt = createdAt
        self.postCount = postCount
        self.viewCount = viewCount
    }
}
