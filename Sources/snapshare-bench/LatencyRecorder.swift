/// Every latency of one kind of operation, for exact percentiles at the end of a run.
///
/// A run of 10 s at 100,000 operations a second keeps 8 MB of samples: cheap next to the
/// precision lost by bucketing, and sorted once.
struct LatencyRecorder {
    private var samples: [UInt64] = []

    var count: Int { samples.count }

    mutating func record(nanoseconds: UInt64) { samples.append(nanoseconds) }

    mutating func merge(_ other: LatencyRecorder) { samples.append(contentsOf: other.samples) }

    /// Percentiles in milliseconds; nil when nothing was recorded.
    func summary() -> LatencySummary? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double {
            // Nearest rank: the smallest sample with at least p of the samples at or below it.
            let rank = Int((p * Double(sorted.count)).rounded(.up))
            return Double(sorted[min(max(rank, 1), sorted.count) - 1]) / 1_000_000
        }
        let total = sorted.reduce(0.0) { $0 + Double($1) }
        return LatencySummary(
            count: sorted.count, mean: total / Double(sorted.count) / 1_000_000,
            p50: percentile(0.50), p90: percentile(0.90), p99: percentile(0.99),
            max: Double(sorted[sorted.count - 1]) / 1_000_000)
    }
}

/// Latency percentiles of one run, in milliseconds.
struct LatencySummary: Sendable {
    var count: Int
    var mean: Double
    var p50: Double
    var p90: Double
    var p99: Double
    var max: Double
}
