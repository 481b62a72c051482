import Crypto
import Synchronization
import Wire

/// The change version Poll compares against, as each user sees it in their class.
///
/// A user's version is the shared count (what can alter every class's listings: an account
/// deleted, a lost link to the other instances), plus their class's count (posts, its staff's
/// changes), plus that user's own opens. A post in one class leaves the pollers of the others
/// alone. An open changes only its viewer's listing (read instead
/// of unread); counting it for everyone would make every watcher in the class re-list after each
/// open. Both parts only grow, so a user's version changes exactly when something they can see
/// may have. The shared count starts from a random value at each start, so a client holding a
/// version from before a restart sees "changed".
final class ChangeVersion: Sendable {
    private let shared: Atomic<UInt64>
    /// Changes per class since the start; one entry per class that changed.
    private let classes = Mutex<[Int64: UInt64]>([:])
    /// Opens per user since the start; one entry per user who opened something.
    private let opens = Mutex<[Int64: UInt64]>([:])

    /// Instances sharing a PostgreSQL database exchange their changes through it; nil: this
    /// process is the only server.
    private let feed: PostgresChangeFeed?

    init(feed: PostgresChangeFeed? = nil) {
        let seed = SecureRandom.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        shared = Atomic(seed & 0x7FFF_FFFF_FFFF_0000)
        self.feed = feed
        feed?.start { [weak self] change in self?.apply(change) }
    }

    /// Stops exchanging changes with other instances.
    func stop() { feed?.stop() }

    /// A change another instance made: counted here, not sent back.
    func apply(_ change: StoreChange) {
        switch change {
        case .everyone: shared.add(1, ordering: .releasing)
        case .inClass(let id): classes.withLock { $0[id, default: 0] &+= 1 }
        case .user(let id): opens.withLock { $0[id, default: 0] &+= 1 }
        }
    }

    /// The version `userID` sees in the class (nil: in no class); read it before reading the
    /// listing it goes with.
    func current(for userID: Int64, in classID: Int64?) -> UInt64 {
        shared.load(ordering: .acquiring) &+ (classID.map { id in classes.withLock { $0[id] ?? 0 } } ?? 0)
            &+ opens.withLock { $0[userID] ?? 0 }
    }

    /// Something every user of every class may see changed (an account deleted).
    func bump() {
        apply(.everyone)
        feed?.publish(.everyone)
    }

    /// Something every member of the class may see changed (a post, a staff change).
    func bump(inClass classID: Int64) {
        apply(.inClass(classID))
        feed?.publish(.inClass(classID))
    }

    /// Only `userID`'s own listing changed (they opened a snap).
    func bump(for userID: Int64) {
        apply(.user(userID))
        feed?.publish(.user(userID))
    }
}
