/// Observations of a duration counted into fixed buckets, as a Prometheus histogram keeps them:
/// one count per upper bound (each counting only its own range; the exposition adds them up),
/// the sum and the count.
struct HistogramCounts: Sendable {
    /// Upper bounds in seconds, from 1 ms (an inline Ping) to 10 s (a password hash behind a
    /// queue, a slow photo source); anything longer lands in +Inf.
    static let bounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// Per bound, the observations above the previous bound and at most this one; the last
    /// slot holds those above every bound.
    private(set) var buckets = [Int64](repeating: 0, count: HistogramCounts.bounds.count + 1)
    private(set) var sumSeconds = 0.0
    private(set) var count: Int64 = 0

    mutating func observe(nanoseconds: UInt64) {
        let seconds = Double(nanoseconds) / 1e9
        let slot = Self.bounds.firstIndex { seconds <= $0 } ?? Self.bounds.count
        buckets[slot] += 1
        sumSeconds += seconds
        count += 1
    }

    /// The running totals Prometheus expects per `le`, ending with +Inf (equal to `count`).
    var cumulative: [(bound: Double, count: Int64)] {
        var total: Int64 = 0
        return zip(Self.bounds + [.infinity], buckets).map { bound, bucket in
            total += bucket
            return (bound, total)
        }
    }
}
