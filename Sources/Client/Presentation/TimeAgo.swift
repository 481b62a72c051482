/// Short relative times for listings: `just now`, `45s ago`, `5m ago`, `3h ago`, `2d ago`,
/// `3w ago`, and `in 5m` for times ahead of `now` (expiry times, or a skewed clock).
enum TimeAgo {
    /// Describes `timestamp` relative to `now`, both in milliseconds since the Unix epoch.
    ///
    /// Units round down (119 s is `1m ago`); anything within 10 s either way is `just now`.
    static func describe(_ timestamp: Int64, now: Int64) -> String {
        let (difference, overflow) = now.subtractingReportingOverflow(timestamp)
        let isFuture = overflow ? timestamp > now : difference < 0
        let milliseconds = overflow ? UInt64.max : difference.magnitude
        let seconds = milliseconds / 1000
        guard seconds >= 10 else { return "just now" }
        let amount: String
        switch seconds {
        case ..<60: amount = "\(seconds)s"
        case ..<3600: amount = "\(seconds / 60)m"
        case ..<86_400: amount = "\(seconds / 3600)h"
        case ..<604_800: amount = "\(seconds / 86_400)d"
        default: amount = "\(seconds / 604_800)w"
        }
        return isFuture ? "in \(amount)" : "\(amount) ago"
    }
}
