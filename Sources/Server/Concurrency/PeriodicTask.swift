import Foundation
import Posix

/// Runs a piece of work every `interval` on a named thread of its own, until stopped (the
/// expiry purge). `stop` wakes the thread at once, so stopping never waits out an interval.
final class PeriodicTask: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var isStopped = false

    /// Starts the thread; the first run comes `firstAfterMilliseconds` from now (by default one
    /// interval), then one every interval.
    init(name: String, intervalMilliseconds: Int64, firstAfterMilliseconds: Int64? = nil, _ body: @escaping @Sendable () -> Void) {
        let interval = TimeInterval(max(1, intervalMilliseconds)) / 1000
        let first = firstAfterMilliseconds.map { TimeInterval(max(0, $0)) / 1000 } ?? interval
        NamedThread.start(name) { [self] in
            var next = Date().addingTimeInterval(first)
            while waitUntil(next) {
                body()
                next = max(next.addingTimeInterval(interval), Date())
            }
        }
    }

    /// Ends the thread after the run in progress, if any; safe to call more than once.
    func stop() {
        condition.lock()
        isStopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `date`; false once stopped.
    private func waitUntil(_ date: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !isStopped && Date() < date {
            _ = condition.wait(until: date)
        }
        return !isStopped
    }
}
