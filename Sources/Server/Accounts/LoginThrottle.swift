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
///
/// The budgets live in the database (`ThrottleStore`), each change one transaction, so every
/// instance sharing a database counts the same attempts; this type holds only the rules. Call it
/// inside a storage write job. An attempt whose instance died before it ended (or whose end could
/// not be recorded) counts as a failure once `Policy.pendingLifetime` has passed; budgets unused
/// for a window are forgotten by the expiry purge.
package struct LoginThrottle: Sendable {
    /// The budgets; the defaults are the server's.
    package struct Policy: Sendable {
        /// Failures for one name from one address per window.
        var perNameAndAddress = 5
        /// Failures from one address per window, across names: a class behind one address
        /// (a school's NAT) may mistype 30 × 5 times without locking itself out, while a spray
        /// of guesses from one address stays bounded.
        package var perAddress = 200
        /// Failures for one name per window before attempts for it are delayed.
        var freePerName = 5
        /// The longest delay, and the furthest ahead an attempt may be scheduled.
        var maximumDelay: Int64 = 30_000
        var window: Int64 = 15 * 60_000

        /// How long an attempt may run before it is taken for one whose instance died: the
        /// longest delay plus a minute for the password check.
        var pendingLifetime: Int64 { maximumDelay + 60_000 }

        init() {}
    }

    typealias Scope = ThrottleScope

    /// An attempt allowed to go on; hand it back to `finish` exactly once.
    struct Attempt: Sendable {
        package let name: String
        let address: String
        /// When it began: its reservation in the budgets.
        let startedAt: Int64
        /// Milliseconds to wait before checking the password (0: at once).
        let delay: Int64
        /// Failures for the name in the window when the attempt began (for logs).
        let recentFailures: Int
    }

    enum Decision: Sendable {
        case allowed(Attempt)
        case refused(Scope, retryAfter: Int64)
    }

    /// How an attempt ended.
    enum Outcome: Sendable {
        case succeeded, failed
        /// Ended before the password was judged (a storage error): it counts for nothing.
        case abandoned
    }

    /// Which throttle this is, in the stored keys: "login" or "class-code".
    let kind: String
    let policy: Policy

    init(kind: String, policy: Policy = Policy()) {
        self.kind = kind
        self.policy = policy
    }

    /// The three budgets of one attempt: name and address, address, name.
    private func keys(name: String, address: String) -> [ThrottleKey] {
        [
            ThrottleKey(kind: kind, scope: .nameAndAddress, name: name, address: address),
            ThrottleKey(kind: kind, scope: .address, name: "", address: address),
            ThrottleKey(kind: kind, scope: .name, name: name, address: ""),
        ]
    }

    /// Reserves an attempt for `name` from `address`, or says which budget refuses it and when
    /// to retry. Names compare case-insensitively. Call it in a write job.
    func begin(name: String, address: String, now: Int64, in store: any ThrottleStore) throws -> Decision {
        let keys = keys(name: name.lowercased(), address: address)
        return try store.updateThrottleBudgets(keys) { budgets in decide(&budgets, keys, now: now) }
    }

    /// The refusal `begin` would give now, read without taking any lock or writing (nil when it
    /// would let the attempt go on). A server asks this first, on a reader, so that a flood of
    /// refused guesses never reaches the writer; `begin` decides again for those let through.
    func refusal(name: String, address: String, now: Int64, in store: any ThrottleStore) throws -> Decision? {
        let keys = keys(name: name.lowercased(), address: address)
        var budgets = try store.throttleBudgets(keys)
        let decision = decide(&budgets, keys, now: now)
        if case .refused = decision { return decision }
        return nil
    }

    /// The rules, on the budgets of `keys` (name and address, address, name): an allowed attempt
    /// reserves its place in all three; a refusal changes nothing.
    private func decide(_ budgets: inout [ThrottleKey: ThrottleBudget], _ keys: [ThrottleKey], now: Int64) -> Decision {
        let policy = self.policy
        var pair = budgets[keys[0]] ?? ThrottleBudget()
        var perAddress = budgets[keys[1]] ?? ThrottleBudget()
        var perName = budgets[keys[2]] ?? ThrottleBudget()
        // Pruning alone is not worth a write: only the budgets of an allowed attempt are stored back.
        pair.prune(now: now, window: policy.window, pendingLifetime: policy.pendingLifetime)
        perAddress.prune(now: now, window: policy.window, pendingLifetime: policy.pendingLifetime)
        perName.prune(now: now, window: policy.window, pendingLifetime: policy.pendingLifetime)
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
        for (key, var budget) in zip(keys, [pair, perAddress, perName]) {
            budget.pending.append(now)
            budget.lastUsed = now
            budgets[key] = budget
        }
        return .allowed(Attempt(name: keys[2].name, address: keys[1].address, startedAt: now, delay: delay, recentFailures: recent))
    }

    /// Ends an attempt: a failure counts in every budget; a success clears its name and
    /// address (that address knows the password), the other budgets keep their history.
    func finish(_ attempt: Attempt, _ outcome: Outcome, now: Int64, in store: any ThrottleStore) throws {
        let keys = keys(name: attempt.name, address: attempt.address)
        try store.updateThrottleBudgets(keys) { budgets in
            for key in keys {
                // A budget forgotten meanwhile (an admin's unlock) has nothing to settle.
                guard var budget = budgets[key] else { continue }
                if let reservation = budget.pending.firstIndex(of: attempt.startedAt) {
                    budget.pending.remove(at: reservation)
                }
                if outcome == .failed { budget.failures.append(now) }
                budget.lastUsed = now
                budgets[key] = budget
            }
            if outcome == .succeeded, budgets[keys[0]]?.pending.isEmpty == true {
                budgets[keys[0]] = nil
            }
        }
    }

    /// Forgets the failures of every budget of `name` (an admin's `unlock`); returns how many
    /// budgets held failures inside the window at `now` (those that throttled something).
    /// Per-address budgets are not the name's and stay; attempts still running keep their
    /// reservations.
    func unlock(name: String, now: Int64, in store: any ThrottleStore) throws -> Int {
        try forget(try store.throttleKeys(kind: kind, name: name.lowercased()), now: now, in: store)
    }

    /// Forgets the failures of every budget of `address` (an admin's `unlock --address`): the
    /// address's own and each name's from it; returns how many held failures inside the window.
    func unlock(address: String, now: Int64, in store: any ThrottleStore) throws -> Int {
        try forget(try store.throttleKeys(kind: kind, address: address), now: now, in: store)
    }

    private func forget(_ keys: [ThrottleKey], now: Int64, in store: any ThrottleStore) throws -> Int {
        let policy = self.policy
        return try store.updateThrottleBudgets(keys) { budgets -> Int in
            var cleared = 0
            for key in keys {
                guard var budget = budgets[key] else { continue }
                budget.prune(now: now, window: policy.window, pendingLifetime: policy.pendingLifetime)
                if !budget.failures.isEmpty { cleared += 1 }
                budget.failures = []
                budget.nextSlot = 0
                budgets[key] = budget
            }
            return cleared
        }
    }

    /// When the oldest failure leaves the window (a second when only pending attempts fill it).
    private static func retryAfter(_ budget: ThrottleBudget, now: Int64, window: Int64) -> Int64 {
        guard let oldest = budget.failures.first else { return 1000 }
        return max(1000, oldest + window - now)
    }
}
