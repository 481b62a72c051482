import Foundation
import Posix
import Testing

@Suite("Monotonic clock")
struct MonotonicClockTests {
    @Test("the clock never goes back and its two units agree")
    func neverGoesBackAndUnitsAgree() {
        var last = MonotonicClock.nanoseconds()
        for _ in 0..<1_000 {
            let now = MonotonicClock.nanoseconds()
            #expect(now >= last)
            last = now
        }
        let milliseconds = MonotonicClock.milliseconds()
        let fromNanoseconds = Int64(MonotonicClock.nanoseconds() / 1_000_000)
        #expect(abs(fromNanoseconds - milliseconds) <= 1_000)
    }

    @Test("a sleep shows as at least its length")
    func aSleepShowsAsAtLeastItsLength() {
        let start = MonotonicClock.milliseconds()
        // The sleep is what is measured here.
        usleep(20_000)
        #expect(MonotonicClock.milliseconds() - start >= 20)
    }
}
