/// Throttle budgets as both engines store them (see `ThrottleStore`).
extension StoreRows {
    /// Budgets are stored as text lists of times ("1700000000000,1700000000500"), the same in both
    /// engines; a list holds at most a budget's allowance.
    static func throttleBudget(_ row: some StoreRow) -> ThrottleBudget {
        ThrottleBudget(failures: times(row.string("failures")), pending: times(row.string("pending")),
                       nextSlot: row.int64("next_slot"), lastUsed: row.int64("last_used"))
    }

    static func throttleKey(_ row: some StoreRow) -> ThrottleKey? {
        guard let scope = ThrottleScope(rawValue: row.int64("scope")) else { return nil }
        return ThrottleKey(kind: row.string("kind"), scope: scope, name: row.string("name"), address: row.string("address"))
    }

    static func timesText(_ times: [Int64]) -> String { times.map(String.init).joined(separator: ",") }

    private static func times(_ text: String) -> [Int64] { text.split(separator: ",").compactMap { Int64($0) } }
}
