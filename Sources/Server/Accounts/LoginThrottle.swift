import Synchronization

/// Limits password and class-code guessing the way large services do, without letting one
/// student lock another out.
///
/// Three budgets, each over a sliding window (15 minutes by default):
/// - **per name and address**: a handful of failures for one name from one address, then that
///   address is refused for that name until its oldest failure leaves the window;
/// - **per address**, across every name: stops one address from spraying guesses over many
///   accounts;
/// - **per name**, across every address: past a free allowance, each further attempt for the
///   name waits a delay that doubles with every failure (1 s, 2 s, 4 s … up to a cap). A right
///   password from another address is therefore delayed, never refused for long, while a
///   guesser spread over many addresses gets one try per delay.
///
/// An attempt reserves its place in every budget *before* the password is checked, and a
/// concurrent attempt counts as a failure until it is known not to be one, so N parallel
/// attempts can never get more guesses than the budgets allow.
public final class LoginThrottle: Sendable {
    /// The budgets; the defaults are the server's.
    public struct Policy: Sendable {
        /// Failures for one name from one address per window.
        public var perNameAndAddress = 5
        /// Failures from one address per window, across names.
        public var perAddress = 50
        /// Failures for one name per window before attempts for it are delayed.
        public var freePerName = 5
        /// The longest delay, and the furthest ahead an attempt may be scheduled.
        public var maximumDelay: Int64 = 30_000
        public var window: Int64 = 15 * 60_000
        /// Keys kept at most per table; the least recently used are forgotten beyond it.
        public var capacity = 100_000

        public init() {}
    }

    /// Which budget refused an attempt.
    public enum Scope: Sendable, Equatable {
        case nameAndAddress, address, name
    }

    /// An attempt allowed to go on; hand it back to `finish` exactly once.
    public struct Attempt: Sendable {
        public let name: String
        public let address: String
        /// Milliseconds to wait before checking the password (0: at once).
        public let delay: Int64
        /// Failures for the name in the window when the attempt began (for logs).
        public let recentFailures: Int
    }

    public enum Decision: Sendable {
        case allowed(Attempt)
        case refused(Scope, retryAfter: Int64)
    }

    private struct Budget {
        var failures: [Int64] = []
        var pending = 0
        /// When the next delayed attempt for a name may run.
        var nextSlot: Int64 = 0
        var lastUsed: Int64 = 0

        mutating func prune(now: Int64, window: Int64) { failures.removeAll { now - $0 >= window } }
        var load: Int { failures.count + pending }
        var isIdle: Bool { failures.isEmpty && pending == 0 }
    }

    private struct Tables {
        var pairs: [String: Budget] = [:]
        var addresses: [String: Budget] = [:]
        var names: [String: Budget] = [:]
    }

    private let tables = Mutex(Tables())
    public let policy: Policy

    public init(policy: Policy = Policy()) { self.policy = policy }

    private static func pairKey(_ name: String, _ address: String) -> String { name + "\u{0}" + address }

    /// Reserves an attempt for `name` from `address`, or says which budget refuses it and when
    /// to retry. Names compare case-insensitively.
    public func begin(name: String, address: String, now: Int64) -> Decision {
        let name = name.lowercased()
        let pairKey = Self.pairKey(name, address)
        let policy = self.policy
        return tables.withLock { tables -> Decision in
            var pair = tables.pairs[pairKey] ?? Budget()
            var perAddress = tables.addresses[address] ?? Budget()
            var perName = tables.names[name] ?? Budget()
            pair.prune(now: now, window: policy.window)
            perAddress.prune(now: now, window: policy.window)
            perName.prune(now: now, window: policy.window)
            if pair.load >= policy.perNameAndAddress {
                return .refused(.nameAndAddress, retryAfter: Self.retryAfter(pair, now: now, window: policy.window))
            }
            if perAddress.load >= policy.perAddress {
                return .refused(.address, retryAfter: Self.retryAfter(perAddress, now: now, window: policy.window))
            }
            var delay: Int64 = 0
            let excess = perName.load - policy.freePerName
            if excess >= 0 {
                let slot = max(now, perName.nextSlot)
                guard slot - now <= policy.maximumDelay else {
                    return .refused(.name, retryAfter: slot - now - policy.maximumDelay)
                }
                let spacing = min(policy.maximumDelay, 1000 << Int64(min(excess, 20)))
                perName.nextSlot = slot + spacing
                delay = slot - now
            }
            let recent = perName.failures.count
            pair.pending += 1
            perAddress.pending += 1
            perName.pending += 1
            pair.lastUsed = now; perAddress.lastUsed = now; perName.lastUsed = now
            tables.pairs[pairKey] = pair
            tables.addresses[address] = perAddress
            tables.names[name] = perName
            Self.bound(&tables, capacity: policy.capacity)
            return .allowed(Attempt(name: name, address: address, delay: delay, recentFailures: recent))
        }
    }

    /// How an attempt ended.
    public enum Outcome: Sendable {
        case succeeded, failed
        /// Ended before the password was judged (a storage error): it counts for nothing.
        case abandoned
    }

    /// Ends an attempt: a failure counts in every budget; a success clears its name and
    /// address (that address knows the password), the other budgets keep their history.
    public func finish(_ attempt: Attempt, _ outcome: Outcome, now: Int64) {
        let succeeded = outcome == .succeeded
        let pairKey = Self.pairKey(attempt.name, attempt.address)
        tables.withLock { tables in
            func settle(_ budget: inout Budget?) {
                guard var value = budget else { return }
                value.pending = max(0, value.pending - 1)
                if outcome == .failed { value.failures.append(now) }
                value.lastUsed = now
                budget = value
            }
            settle(&tables.pairs[pairKey])
            settle(&tables.addresses[attempt.address])
            settle(&tables.names[attempt.name])
            if succeeded, tables.pairs[pairKey]?.pending == 0 { tables.pairs[pairKey] = nil }
        }
    }

    /// Forgets every budget of `name` (an admin's `unlock`); returns how many budgets held
    /// failures. Per-address budgets are not the name's and stay.
    public func unlock(name: String) -> Int {
        let name = name.lowercased()
        let prefix = name + "\u{0}"
        return tables.withLock { tables -> Int in
            var cleared = 0
            for key in tables.pairs.keys where key.hasPrefix(prefix) {
                if tables.pairs[key]?.failures.isEmpty == false { cleared += 1 }
                if tables.pairs[key]?.pending == 0 { tables.pairs[key] = nil } else { tables.pairs[key]?.failures = [] }
            }
            if let budget = tables.names[name] {
                if !budget.failures.isEmpty { cleared += 1 }
                if budget.pending == 0 { tables.names[name] = nil } else {
                    tables.names[name]?.failures = []
                    tables.names[name]?.nextSlot = 0
                }
            }
            return cleared
        }
    }

    /// When the oldest failure leaves the window (a second when only pending attempts fill it).
    private static func retryAfter(_ budget: Budget, now: Int64, window: Int64) -> Int64 {
        guard let oldest = budget.failures.first else { return 1000 }
        return max(1000, oldest + window - now)
    }

    /// Keeps each table within `capacity` keys: idle budgets go first, then the least recently used.
    private static func bound(_ tables: inout Tables, capacity: Int) {
        func trim(_ table: inout [String: Budget]) {
            guard table.count > capacity else { return }
            table = table.filter { !$0.value.isIdle }
            guard table.count > capacity else { return }
            let keep = table.sorted { $0.value.lastUsed > $1.value.lastUsed }.prefix(capacity * 3 / 4)
            table = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
        }
        trim(&tables.pairs)
        trim(&tables.addresses)
        trim(&tables.names)
    }
}
