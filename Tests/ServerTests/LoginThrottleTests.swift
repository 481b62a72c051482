import Testing
@testable import Server

@Suite struct LoginThrottleTests {
    static let minute: Int64 = 60_000

    static func allowed(_ decision: LoginThrottle.Decision) -> LoginThrottle.Attempt? {
        if case .allowed(let attempt) = decision { return attempt }
        return nil
    }

    static func refusal(_ decision: LoginThrottle.Decision) -> LoginThrottle.Scope? {
        if case .refused(let scope, _) = decision { return scope }
        return nil
    }

    /// Fails `count` attempts for `name` from `address` at `now`.
    static func fail(_ throttle: LoginThrottle, _ name: String, from address: String, count: Int, now: Int64 = 0) {
        for _ in 0..<count {
            guard let attempt = allowed(throttle.begin(name: name, address: address, now: now)) else { Issue.record("refused"); return }
            throttle.finish(attempt, .failed, now: now)
        }
    }

    @Test func attemptsInProgressCountAgainstTheBudgetBeforeThePasswordIsChecked() {
        let throttle = LoginThrottle()
        let decisions = (0..<20).map { _ in throttle.begin(name: "bob", address: "10.0.0.1", now: 0) }
        #expect(decisions.compactMap(Self.allowed).count == 5, "parallel attempts may not outrun the budget")
        #expect(decisions.compactMap(Self.refusal).allSatisfy { $0 == .nameAndAddress })
    }

    @Test func failuresFromOneAddressDoNotLockTheNameForOtherAddresses() {
        let throttle = LoginThrottle()
        Self.fail(throttle, "bob", from: "10.0.0.66", count: 5)
        #expect(Self.refusal(throttle.begin(name: "BOB", address: "10.0.0.66", now: 1000)) == .nameAndAddress, "names ignore case")
        let fromHome = Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 1000))
        #expect(fromHome?.delay == 0, "the first attempt past the free allowance runs at once")
        throttle.finish(fromHome!, .succeeded, now: 1000)
    }

    @Test func furtherAttemptsForAGuessedNameWaitLongerAndLonger() throws {
        let throttle = LoginThrottle()
        Self.fail(throttle, "bob", from: "10.0.0.66", count: 5)
        var delays: [Int64] = []
        for host in 1...5 {
            let attempt = try #require(Self.allowed(throttle.begin(name: "bob", address: "10.1.0.\(host)", now: 0)))
            delays.append(attempt.delay)
        }
        #expect(delays == [0, 1000, 3000, 7000, 15000], "each slot is 1 s, 2 s, 4 s, 8 s … after the one before")
        #expect(Self.refusal(throttle.begin(name: "bob", address: "10.1.0.9", now: 0)) == .name,
                "nothing is scheduled further ahead than the longest delay")
    }

    @Test func oneAddressCannotSprayGuessesOverManyNames() {
        let throttle = LoginThrottle()
        for index in 0..<50 { Self.fail(throttle, "user\(index)", from: "10.0.0.66", count: 1) }
        #expect(Self.refusal(throttle.begin(name: "someone", address: "10.0.0.66", now: 0)) == .address)
        #expect(Self.allowed(throttle.begin(name: "someone", address: "10.0.0.7", now: 0)) != nil)
    }

    @Test func failuresLeaveTheWindow() {
        let throttle = LoginThrottle()
        Self.fail(throttle, "bob", from: "10.0.0.66", count: 5)
        guard case .refused(_, let retryAfter) = throttle.begin(name: "bob", address: "10.0.0.66", now: Self.minute) else {
            Issue.record("allowed"); return
        }
        #expect(retryAfter == 14 * Self.minute)
        #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.66", now: 15 * Self.minute)) != nil)
    }

    @Test func aSuccessClearsItsAddressAndAnAbandonedAttemptCountsForNothing() throws {
        let throttle = LoginThrottle()
        Self.fail(throttle, "bob", from: "10.0.0.7", count: 4)
        let right = try #require(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 0)))
        throttle.finish(right, .succeeded, now: 0)
        let abandoned = try #require(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 0)))
        throttle.finish(abandoned, .abandoned, now: 0)
        Self.fail(throttle, "bob", from: "10.0.0.7", count: 4)
        #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.7", now: 0)) != nil)
    }

    @Test func unlockForgetsEveryBudgetOfTheName() {
        let throttle = LoginThrottle()
        Self.fail(throttle, "bob", from: "10.0.0.66", count: 5)
        Self.fail(throttle, "bob", from: "10.0.0.67", count: 3)
        #expect(throttle.unlock(name: "Bob") == 3, "two addresses and the name held failures")
        #expect(Self.allowed(throttle.begin(name: "bob", address: "10.0.0.66", now: 0))?.delay == 0)
        #expect(throttle.unlock(name: "carol") == 0)
    }

    @Test func theTablesStayWithinTheirCapacity() {
        var policy = LoginThrottle.Policy()
        policy.capacity = 100
        policy.perAddress = 1_000_000
        let throttle = LoginThrottle(policy: policy)
        for index in 0..<1000 { Self.fail(throttle, "user\(index)", from: "10.0.\(index / 256).\(index % 256)", count: 1, now: Int64(index)) }
        #expect(Self.allowed(throttle.begin(name: "user999", address: "10.0.3.231", now: 1000)) != nil)
        // The most recent names are kept: user999 has two failures now and three more allowed.
        Self.fail(throttle, "user999", from: "10.0.3.231", count: 3, now: 1000)
        #expect(Self.refusal(throttle.begin(name: "user999", address: "10.0.3.231", now: 1000)) == .nameAndAddress)
    }
}
