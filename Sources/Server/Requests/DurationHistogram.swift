import Synchronization

/// One histogram of durations, recorded from any thread (the storage writer's commits).
final class DurationHistogram: Sendable {
    private let counts = Mutex(HistogramCounts())

    init() {}

    func observe(nanoseconds: UInt64) { counts.withLock { $0.observe(nanoseconds: nanoseconds) } }

    /// A copy of the counts as they are now.
    var snapshot: HistogramCounts { counts.withLock { $0 } }
}
