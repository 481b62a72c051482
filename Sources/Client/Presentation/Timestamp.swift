import Foundation

/// Times as scripts want them.
enum Timestamp {
    /// Milliseconds since the epoch as ISO 8601 UTC with seconds, e.g. `2026-11-29T12:04:09Z`.
    static func iso8601(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).formatted(.iso8601)
    }

    /// Milliseconds since the epoch, now.
    static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}
