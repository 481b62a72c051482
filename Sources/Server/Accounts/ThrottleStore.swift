/// The budgets of the login and class-code throttles (`LoginThrottle`), kept in the database so
/// that every instance sharing it counts the same failures: a guesser spread over several
/// instances gets no more tries than one instance would give.
///
/// The throttle's rules stay in `LoginThrottle`; a store only locks, reads and writes budgets,
/// and `updateThrottleBudgets` puts those together once for every engine. The protocol lives
/// beside the throttle that needs it; the storage engines implement it.
package protocol ThrottleStore: AnyObject {
    /// Runs `body` atomically (nested: a savepoint), as `SnapshareStore.transaction`.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// Inside a transaction: makes a concurrent change of the same keys, from this or another
    /// instance, wait until this transaction ends. Keys are taken in one order, so two changes
    /// cannot wait for each other.
    func lockThrottleBudgets(_ keys: [ThrottleKey]) throws
    /// The budgets of `keys` as stored (missing ones left out); no lock taken.
    func throttleBudgets(_ keys: [ThrottleKey]) throws -> [ThrottleKey: ThrottleBudget]
    /// Stores one budget, or deletes it (nil).
    func saveThrottleBudget(_ key: ThrottleKey, _ budget: ThrottleBudget?) throws
    /// The stored keys of one throttle that belong to a name (its per-name budget and every
    /// name-and-address budget), for an admin's unlock.
    func throttleKeys(kind: String, name: String) throws -> [ThrottleKey]
    /// The stored keys of one throttle that belong to an address (its per-address budget and
    /// every name-and-address budget from it), for an admin's unlock of the address.
    func throttleKeys(kind: String, address: String) throws -> [ThrottleKey]
    /// Deletes budgets last used before `before` (their failures have left every window);
    /// returns how many.
    func forgetThrottleBudgets(lastUsedBefore before: Int64) throws -> Int
}

/// Which budget of a throttle: one name from one address, one address across names, or one
/// name across addresses.
enum ThrottleScope: Int64, Sendable, Hashable {
    case nameAndAddress = 0
    case address = 1
    case name = 2
}

/// One budget's key. Unused parts are empty: an address budget has no name, a name budget
/// no address.
package struct ThrottleKey: Sendable, Hashable {
    /// Which throttle: "login" or "class-code".
    var kind: String
    var scope: ThrottleScope
    package var name: String
    var address: String

}

/// The attempts a budget remembers, in milliseconds since the epoch.
package struct ThrottleBudget: Sendable, Equatable {
    /// When each failure in the window happened, oldest first.
    var failures: [Int64] = []
    /// When each attempt still running began; one whose instance died lapses into a failure
    /// (`LoginThrottle.Policy.pendingLifetime`).
    var pending: [Int64] = []
    /// When the next delayed attempt for a name may run.
    var nextSlot: Int64 = 0
    var lastUsed: Int64 = 0

    init(failures: [Int64] = [], pending: [Int64] = [], nextSlot: Int64 = 0, lastUsed: Int64 = 0) {
        self.failures = failures
        self.pending = pending
        self.nextSlot = nextSlot
        self.lastUsed = lastUsed
    }

    /// Nothing to remember: the store deletes it.
    var isIdle: Bool { failures.isEmpty && pending.isEmpty }
    var load: Int { failures.count + pending.count }

    /// Forgets failures that left the window. An attempt that outlived any real one (its
    /// instance died, or its end could not be recorded) counts as the failure it may have been.
    mutating func prune(now: Int64, window: Int64, pendingLifetime: Int64) {
        let lapsed = pending.filter { now - $0 >= pendingLifetime }
        if !lapsed.isEmpty {
            pending.removeAll { now - $0 >= pendingLifetime }
            failures = (failures + lapsed).sorted()
        }
        failures.removeAll { now - $0 >= window }
    }
}

extension ThrottleStore {
    /// Reads the budgets of `keys` (a missing one is empty), hands them to `change`, and writes
    /// back the ones it changed, deleting those left idle; all in one transaction that a
    /// concurrent change of the same keys waits for (`lockThrottleBudgets`). A throw from
    /// `change` writes nothing and comes out unchanged.
    func updateThrottleBudgets<R>(
        _ keys: [ThrottleKey],
        _ change: (inout [ThrottleKey: ThrottleBudget]) throws -> R
    ) throws -> R {
        try transaction {
            try lockThrottleBudgets(keys)
            let stored = try throttleBudgets(keys)
            var budgets = stored
            let result = try change(&budgets)
            for key in Set(stored.keys).union(budgets.keys) {
                let budget = budgets[key].flatMap { $0.isIdle ? nil : $0 }
                if budget != stored[key] { try saveThrottleBudget(key, budget) }
            }
            return result
        }
    }
}
