import Synchronization

/// Refuses further password attempts for a user name after too many recent failures, so a
/// guesser gets a handful of tries per window instead of thousands per second.
public final class LoginThrottle: Sendable {
    private let failures = Mutex<[String: [Int64]]>([:])
    private let limit: Int
    private let window: Int64

    public init(limit: Int, windowMilliseconds: Int64) {
        self.limit = limit
        self.window = windowMilliseconds
    }

    /// Milliseconds until another attempt is allowed, or nil when one is allowed now.
    public func retryAfter(user: String, now: Int64) -> Int64? {
        failures.withLock { table -> Int64? in
            let key = user.lowercased()
            let recent = (table[key] ?? []).filter { now - $0 < window }
            table[key] = recent.isEmpty ? nil : recent
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return oldest + window - now
        }
    }

    public func recordFailure(user: String, now: Int64) {
        failures.withLock { table in
            let key = user.lowercased()
            var recent = (table[key] ?? []).filter { now - $0 < window }
            recent.append(now)
            if recent.count > limit { recent.removeFirst(recent.count - limit) }
            table[key] = recent
            // Bound the table: forget the oldest entries when it grows large.
            if table.count > 100_000 { table.removeAll() }
        }
    }

    public func recordSuccess(user: String) {
        _ = failures.withLock { $0.removeValue(forKey: user.lowercased()) }
    }
}
