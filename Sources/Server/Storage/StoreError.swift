/// Why a storage call failed, in the product's terms; every store of every engine throws these.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case notFound, conflict, alreadyViewed, expired, ownSnap, corrupt, unavailable, internalError
    }
    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
    public var description: String { "\(kind): \(message)" }
}
