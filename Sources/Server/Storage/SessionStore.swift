/// Sessions and the access epoch: who is logged in, and whether a live connection's rights
/// still hold. Used by the login and logout handlers, the admin handlers that end sessions, the
/// server's expiry sweep and `SessionAudit`.
///
/// Only the SHA-256 of a session token is ever stored, so a stolen database yields no live token.
package protocol SessionStore: AnyObject {
    /// Stores a session of `userID`; `StoreError.notFound` when there is no such user.
    func createSession(userID: Int64, tokenHash: [UInt8], at: Int64, expiresAt: Int64) throws
    /// The user owning an unexpired session, or nil.
    func sessionUser(tokenHash: [UInt8], now: Int64) throws -> UserRecord?
    /// Ends one session (nothing happens when there is none).
    func deleteSession(tokenHash: [UInt8]) throws
    /// Ends every session of the user except the one with `tokenHash`; returns how many ended.
    func deleteSessions(userID: Int64, keeping tokenHash: [UInt8]?) throws -> Int
    /// Ends every session expired at `now`; returns how many ended.
    func deleteExpiredSessions(now: Int64) throws -> Int
    /// A number that moves whenever any process ends a session, changes a user's admin flag,
    /// password, name or disabled state, or makes, changes or ends a membership.
    func accessEpoch() throws -> Int64
    /// For each session (its token hash and its user), whether it is still live and with which
    /// admin right, name and classes, and, for one that is not, whether its account was deleted
    /// or disabled.
    func sessionAccess(sessions: [(tokenHash: [UInt8], userID: Int64)], now: Int64) throws -> [SessionAccess]
}

/// A live connection's session as storage sees it now.
package struct SessionAccess: Sendable, Equatable {
    var tokenHash: [UInt8]
    /// The user's admin right, or nil when the session no longer exists (or expired).
    package var isAdmin: Bool?
    /// The user's name now (empty when the session no longer exists).
    package var name = ""
    /// The user's classes now, with their role in each, oldest membership first.
    package var classes: [CurrentClass] = []
    /// The class a connection acts in when its own is gone: the default class
    /// (`ClassStore.defaultClass`), or nil.
    package var defaultClass: CurrentClass?
    /// For a session that no longer exists: its account was deleted or disabled (nil: it ended
    /// otherwise, logged out, expired or ended by a password change).
    var closure: AccountClosure?
}
