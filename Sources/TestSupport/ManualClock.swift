import Server
import Synchronization

/// A wall clock a test moves by hand: a server started with it sees time pass only when the
/// test says so (snap expiry, session lifetimes), with no sleeping.
package final class ManualClock: Sendable {
    private let milliseconds: Atomic<Int64>

    /// Starts at the machine's time now, so what the server stores still looks like a date.
    package init(startingAt start: Int64 = WallClock.system.now()) {
        milliseconds = Atomic(start)
    }

    /// The clock to give the server.
    package var clock: WallClock { WallClock { [self] in milliseconds.load(ordering: .relaxed) } }

    package func advance(byMilliseconds delta: Int64) {
        milliseconds.add(delta, ordering: .relaxed)
    }
}
