/// Why a storage call failed, in the product's terms; every store of every engine throws these.
struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        case notFound, conflict, alreadyViewed, expired, ownSnap, corrupt, unavailable, internalError
    }
    var kind: Kind
    var message: String
    /// The database broke off this transaction because of another one it conflicted with (a
    /// deadlock between instances on PostgreSQL): nothing of it was kept, and running it again
    /// may well succeed.
    var isTransient = false
    init(_ kind: Kind, _ message: String, isTransient: Bool = false) {
        self.kind = kind
        self.message = message
        self.isTransient = isTransient
    }
    package var description: String { "\(kind): \(message)" }
}
