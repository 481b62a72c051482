/// The user a connection is logged in as.
struct AuthenticatedUser: Sendable, Equatable {
    package var id: Int64
    package var name: String
    package var isAdmin: Bool
    var createdAt: Int64
    /// SHA-256 of the session token this connection authenticated with.
    var sessionHash: [UInt8]
    /// The password is a one-time one (a roster import's): only ChangePassword, WhoAmI, Logout
    /// and Ping are answered until it is changed.
    package var mustChangePassword = false
    /// The class the connection acts in, or nil for an account in no class: its default class
    /// (`ClassStore.defaultClass`) from the login on.
    package var currentClass: CurrentClass?
}

extension AuthenticatedUser {
    /// The user's memberships are now `classes`: the connection keeps its class with the role
    /// they have there now; out of it, it acts in `fallback`. A site admin stays in a class they
    /// are not a member of (they act there as its owner).
    mutating func classesChanged(_ classes: [CurrentClass], fallback: CurrentClass?) {
        if let current = currentClass {
            if let now = classes.first(where: { $0.id == current.id }) {
                currentClass = now
                return
            }
            if isAdmin {
                currentClass?.role = nil
                return
            }
        }
        currentClass = fallback
    }
}

/// The class a connection acts in: which, and the account's role there (nil for a site admin who
/// is not a member, who acts as its owner).
package struct CurrentClass: Sendable, Equatable {
    package var id: Int64
    package var handle: String
    package var role: ClassRole?
}

/// How a request changed the connection's identity.
enum IdentityChange: Sendable, Equatable {
    case unchanged
    case loggedIn(AuthenticatedUser)
    case loggedOut
    /// The connection acts in another class (UseClass, JoinClass): only its class changes, so a
    /// right or a membership changed while the request ran is not undone.
    case classChosen(CurrentClass?)
}
