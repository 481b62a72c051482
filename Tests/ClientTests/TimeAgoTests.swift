import Testing

@testable import Client

private let now: Int64 = 1_800_000_000_000

private func ago(seconds: Int64) -> String {
    TimeAgo.describe(now - seconds * 1000, now: now)
}

@Suite struct TimeAgoTests {
    @Test func underTenSecondsIsJustNow() {
        #expect(ago(seconds: 0) == "just now")
        #expect(TimeAgo.describe(now - 9_999, now: now) == "just now")
        #expect(TimeAgo.describe(now + 9_999, now: now) == "just now")
        #expect(ago(seconds: 10) == "10s ago")
    }

    @Test func eachUnitStartsAtItsBoundaryAndRoundsDown() {
        #expect(ago(seconds: 45) == "45s ago")
        #expect(ago(seconds: 59) == "59s ago")
        #expect(ago(seconds: 60) == "1m ago")
        #expect(ago(seconds: 119) == "1m ago")
        #expect(ago(seconds: 5 * 60) == "5m ago")
        #expect(ago(seconds: 3599) == "59m ago")
        #expect(ago(seconds: 3600) == "1h ago")
        #expect(ago(seconds: 3 * 3600 + 59 * 60) == "3h ago")
        #expect(ago(seconds: 86_399) == "23h ago")
        #expect(ago(seconds: 86_400) == "1d ago")
        #expect(ago(seconds: 2 * 86_400) == "2d ago")
        #expect(ago(seconds: 7 * 86_400 - 1) == "6d ago")
        #expect(ago(seconds: 7 * 86_400) == "1w ago")
        #expect(ago(seconds: 3 * 7 * 86_400) == "3w ago")
        #expect(ago(seconds: 520 * 7 * 86_400) == "520w ago")
    }

    @Test func futureTimesReadAsIn() {
        #expect(TimeAgo.describe(now + 10_000, now: now) == "in 10s")
        #expect(TimeAgo.describe(now + 5 * 60_000, now: now) == "in 5m")
        #expect(TimeAgo.describe(now + 7 * 86_400_000, now: now) == "in 1w")
    }

    @Test func extremeValuesDoNotTrap() {
        #expect(TimeAgo.describe(.min, now: .max).hasSuffix("w ago"))
        #expect(TimeAgo.describe(.max, now: .min).hasPrefix("in "))
        #expect(TimeAgo.describe(0, now: now).hasSuffix("w ago"))
    }
}
