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
}

/// A stored account.
public struct UserRecord: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var passwordHash: String
    public var isAdmin: Bool
    public var createdAt: Int64
    public init(id: Int64, name: String, passwordHash: String, isAdmin: Bool, createdAt: Int64) {
        self.id = id; self.name = name; self.passwordHash = passwordHash
        self.isAdmin = isAdmin; self.createdAt = createdAt
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
