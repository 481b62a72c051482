import Testing

@testable import Server

/// Three users and the feed `Memes`, the cast of most contract tests.
struct StoreFixture {
    let store: any SnapshareStore
    let alice: UserRecord
    let bob: UserRecord
    let carol: UserRecord
    let feed: FeedRecord

    init(store: any SnapshareStore) throws {
        self.store = store
        alice = try store.createUser(name: "alice", passwordHash: "h", isAdmin: false, at: 1)
        bob = try store.createUser(name: "bob", passwordHash: "h", isAdmin: false, at: 2)
        carol = try store.createUser(name: "carol", passwordHash: "h", isAdmin: true, at: 3)
        feed = try #require(try store.feed(named: "Memes"))
    }

    /// Posts a snap by `poster` at `postedAt`, expiring at `expiresAt`.
    @discardableResult
    func post(
        by poster: UserRecord, at postedAt: Int64 = 1_000, expiresAt: Int64 = 10_000,
        image: [UInt8] = Array("not really a png".utf8), feedID: Int64? = nil, awaitingApproval: Bool = false
    ) throws -> SnapListing {
        try store.insertSnap(
            NewSnap(
                feedID: feedID ?? feed.id, posterID: poster.id, image: image,
                sha256: [UInt8](repeating: 0xAB, count: 32), format: .png,
                width: 4, height: 3, postedAt: postedAt, expiresAt: expiresAt, awaitingApproval: awaitingApproval))
    }

    /// The feed of that name, which the test expects to exist.
    func feed(named name: String) throws -> FeedRecord {
        try #require(try store.feed(named: name))
    }

    /// The store's counters by name.
    func statistics(now: Int64) throws -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: try store.statistics(now: now).map { ($0.name, $0.value) })
    }
}

/// The StoreError kind thrown by `body`, or nil if it did not throw one.
func storeErrorKind(_ body: () throws -> Void) -> StoreError.Kind? {
    do {
        try body()
        return nil
    } catch let error as StoreError {
        return error.kind
    } catch {
        return .internalError
    }
}
