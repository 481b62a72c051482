import Testing

@testable import Server

/// The throttle's rules, on each storage engine's real budgets (`ThrottleStore`).
@Suite struct LoginThrottleTests {
    static let minute: Int64 = 60_000

    /// A throttle over one store, called the way a storage job calls it.
    struct Throttle {
        let rules: LoginThrottle
        let store: any ThrottleStore
        init(_ store: any ThrottleStore, policy: LoginThrottle.Policy = LoginThrottle.Policy(), kind: String = "login") {
            rules = LoginThrottle(kind: kind, policy: policy)
            self.store = store
        }
        func begin(name: String, address: String, now: Int64) -> LoginThrottle.Decision {
            do { return try rules.begin(name: name, address: address, now: now, in: store) } catch {
                Issue.record("begin failed: \(error)")
                return .refused(.address, retryAfter: 0)
            }
        }
        func finish(_ attempt: LoginThrottle.Attempt, _ outcome: LoginThrottle.Outcome, now: Int64) {
            do { try rules.finish(attempt, outcome, now: now, in: store) } catch { Issue.record("finish failed: \(error)") }
        }
        func unlock(name: String, now: Int64 = 0) throws -> Int { try rules.unlock(name: name, now: now, in: store) }
        func refusal(name: String, address: String, now: Int64) throws -> LoginThrottle.Decision? {
            try rules.refusal(name: name, address: address, now: now, in: store)
        }
    }

    static func allowed(_ decision: LoginThrottle.Decision) -> LoginThrottle.Attempt? {
        if case .allowed(let attempt) = decision { return attempt }
        return nil
    }

    static func refusal(_ decision: LoginThrottle.Decision) -> LoginThrottle.Scope? {
        if case .refused(let scope, _) = decision { return scope }
        return nil
    }

    /// Fails `count` attempts for `name` from `address` at `now`.
    static func fail(_ throttle: Throttle, _ name: String, from address: String, count: Int, now: Int64 = 0) {
        for _ in 0..<count {
            guard let attempt = allowed(throttle.begin(name: name, address: address, now: now)) else {
                Issue.record("refused")
                return
            }
            throttle.finish(attempt, .failed, now: now)
        }
    }

    @Test(arguments: StoreEngine.all) func attemptsInProgressCountAgainstTheBudgetBeforeThePasswordIsChecked(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            let decisions = (0..<20).map { _ in throttle.begin(name: "bob", address: "10.0.0.1", now: 0) }
            #expect(decisions.compactMap(Self.allowed).count == 5, "parallel attempts may not outrun the budget")
            #expect(decisions.compactMap(Self.refusal).allSatisfy { $0 == .nameAndAddress })
        }
    }

    @Test(arguments: StoreEngine.all) func failuresFromOneAddressDoNotLockTheNameForOtherAddresses(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            Self.fail(throttle, "bob", from: "10.0.0.66", count: 5)
            #expect(Self.refusal(throttle.begin(name: "BOB", address: "10.0.0.66", now: 1000)) == .nameAndAddress, "names ignore case")
            let fromHome = Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 1000))
            #expect(fromHome?.delay == 0, "the first attempt past the free allowance runs at once")
            throttle.finish(fromHome!, .succeeded, now: 1000)
        }
    }

    @Test(arguments: StoreEngine.all) func furtherAttemptsForAGuessedNameWaitLongerAndLonger(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            Self.fail(throttle, "bob", from: "10.0.0.66", count: 5)
            var delays: [Int64] = []
            for host in 1...5 {
                let attempt = try #require(Self.allowed(throttle.begin(name: "bob", address: "10.1.0.\(host)", now: 0)))
                delays.append(attempt.delay)
            }
            #expect(delays == [0, 1000, 3000, 7000, 15000], "each slot is 1 s, 2 s, 4 s, 8 s … after the one before")
            #expect(
                Self.refusal(throttle.begin(name: "bob", address: "10.1.0.9", now: 0)) == .name,
                "nothing is scheduled further ahead than the longest delay")
        }
    }

    @Test(arguments: StoreEngine.all) func oneAddressCannotSprayGuessesOverManyNames(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            for index in 0..<LoginThrottle.Policy().perAddress { Self.fail(throttle, "user\(index)", from: "10.0.0.66", count: 1) }
            #expect(Self.refusal(throttle.begin(name: "someone", address: "10.0.0.66", now: 0)) == .address)
            #expect(Self.allowed(throttle.begin(name: "someone", address: "10.0.0.7", now: 0)) != nil)
        }
    }

    @Test(arguments: StoreEngine.all) func failuresLeaveTheWindow(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            Self.fail(throttle, "bob", from: "10.0.0.66", count: 5)
            guard case .refused(_, let retryAfter) = throttle.begin(name: "bob", address: "10.0.0.66", now: Self.minute) else {
                Issue.record("allowed")
                return
            }
            #expect(retryAfter == 14 * Self.minute)
            #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.66", now: 15 * Self.minute)) != nil)
        }
    }

    @Test(arguments: StoreEngine.all) func aSuccessClearsItsAddressAndAnAbandonedAttemptCountsForNothing(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            Self.fail(throttle, "bob", from: "10.0.0.7", count: 4)
            let right = try #require(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 0)))
            throttle.finish(right, .succeeded, now: 0)
            let abandoned = try #require(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 0)))
            throttle.finish(abandoned, .abandoned, now: 0)
            Self.fail(throttle, "bob", from: "10.0.0.7", count: 4)
            #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 0)) != nil)
        }
    }

    @Test(arguments: StoreEngine.all) func unlockForgetsEveryBudgetOfTheName(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            Self.fail(throttle, "bob", from: "10.0.0.66", count: 5)
            Self.fail(throttle, "bob", from: "10.0.0.67", count: 3)
            let cleared = try throttle.unlock(name: "Bob")
            #expect(cleared == 3, "two addresses and the name held failures")
            #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.66", now: 0))?.delay == 0)
            let none = try throttle.unlock(name: "carol")
            #expect(none == 0)
            Self.fail(throttle, "dora", from: "10.0.0.68", count: 2)
            #expect(
                try throttle.unlock(name: "dora", now: LoginThrottle.Policy().window + 1) == 0,
                "failures that already left the window throttled nothing, so they are not counted")
        }
    }

    @Test(arguments: StoreEngine.all) func theReadOnlyCheckRefusesAsBeginWouldAndReservesNothing(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            Self.fail(throttle, "bob", from: "10.0.0.66", count: 4)
            for _ in 0..<10 { #expect(try throttle.refusal(name: "Bob", address: "10.0.0.66", now: 0) == nil) }
            #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.66", now: 0)) != nil, "the checks reserved nothing")
            let refused = try #require(try throttle.refusal(name: "bob", address: "10.0.0.66", now: 0))
            #expect(Self.refusal(refused) == .nameAndAddress)
            #expect(Self.refusal(throttle.begin(name: "bob", address: "10.0.0.66", now: 0)) == .nameAndAddress)
        }
    }

    @Test(arguments: StoreEngine.all) func anAttemptWhoseInstanceDiedLapsesIntoAFailure(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            // Three attempts begin and never finish (their instance was killed).
            for _ in 0..<3 { #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 0)) != nil) }
            let lifetime = LoginThrottle.Policy().pendingLifetime
            // Past their lifetime they are the failures they may have been: two more tries, not five.
            let next = try #require(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: lifetime)))
            #expect(next.recentFailures == 3)
            throttle.finish(next, .failed, now: lifetime)
            Self.fail(throttle, "bob", from: "10.0.0.7", count: 1, now: lifetime)
            #expect(Self.refusal(throttle.begin(name: "bob", address: "10.0.0.7", now: lifetime)) == .nameAndAddress)
            // And they leave the window as failures do.
            #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 15 * Self.minute)) != nil)
        }
    }

    @Test(arguments: StoreEngine.all) func budgetsUnusedForAWindowAreForgottenAndIdleOnesAreNotKept(engine: StoreEngine) throws {
        try engine.withStore { store in
            let throttle = Throttle(store)
            Self.fail(throttle, "bob", from: "10.0.0.66", count: 2, now: 0)
            let right = try #require(Self.allowed(throttle.begin(name: "carol", address: "10.0.0.7", now: 0)))
            throttle.finish(right, .succeeded, now: 0)
            // Carol's success left nothing to remember; Bob's three budgets hold his failures.
            #expect(try store.throttleKeys(kind: "login", name: "carol").isEmpty)
            #expect(try store.throttleKeys(kind: "login", name: "bob").count == 2)
            #expect(try store.forgetThrottleBudgets(lastUsedBefore: 0) == 0)
            #expect(try store.forgetThrottleBudgets(lastUsedBefore: 1) == 3)
            #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.66", now: 1))?.recentFailures == 0)
        }
    }

    @Test(arguments: StoreEngine.all) func connectionsSharingADatabaseCountTheSameFailures(engine: StoreEngine) throws {
        try engine.withDatabase { open in
            // Two connections stand for two instances on one database.
            let first = Throttle(try open())
            let second = Throttle(try open())
            Self.fail(first, "bob", from: "10.0.0.66", count: 3)
            Self.fail(second, "bob", from: "10.0.0.66", count: 2)
            #expect(Self.refusal(first.begin(name: "bob", address: "10.0.0.66", now: 0)) == .nameAndAddress)
            #expect(try second.unlock(name: "bob") == 2)
            #expect(Self.allowed(first.begin(name: "bob", address: "10.0.0.66", now: 0)) != nil)
            // The class-code throttle is another kind: its budgets are its own.
            #expect(Self.allowed(Throttle(try open(), kind: "class-code").begin(name: "bob", address: "10.0.0.66", now: 0)) != nil)
        }
    }
}
