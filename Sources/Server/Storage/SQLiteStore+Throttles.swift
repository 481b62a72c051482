import SQLite

/// Throttle budgets: one row per key (`ThrottleStore.updateThrottleBudgets` puts these together).
extension SQLiteStore: ThrottleStore {
    /// The writer connection holds SQLite's write lock for its whole transaction already.
    public func lockThrottleBudgets(_ keys: [ThrottleKey]) throws {}

    public func saveThrottleBudget(_ key: ThrottleKey, _ budget: ThrottleBudget?) throws {
        try translatingErrors("saving login throttle") {
            if let budget {
                try database.run("""
                    INSERT OR REPLACE INTO throttle_budgets (kind, scope, name, address, failures, pending, next_slot, last_used)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                    """, Self.values(key) + [.text(StoreRows.timesText(budget.failures)), .text(StoreRows.timesText(budget.pending)),
                                             .integer(budget.nextSlot), .integer(budget.lastUsed)])
            } else {
                try database.run("DELETE FROM throttle_budgets WHERE kind = ?1 AND scope = ?2 AND name = ?3 AND address = ?4",
                                 Self.values(key))
            }
        }
    }

    public func throttleBudgets(_ keys: [ThrottleKey]) throws -> [ThrottleKey: ThrottleBudget] {
        try translatingErrors("reading login throttle") {
            var stored: [ThrottleKey: ThrottleBudget] = [:]
            for key in keys {
                stored[key] = try database.queryFirst("""
                    SELECT failures, pending, next_slot, last_used FROM throttle_budgets
                    WHERE kind = ?1 AND scope = ?2 AND name = ?3 AND address = ?4
                    """, Self.values(key), row: StoreRows.throttleBudget)
            }
            return stored
        }
    }

    public func throttleKeys(kind: String, name: String) throws -> [ThrottleKey] {
        try translatingErrors("listing login throttle budgets") {
            try database.query("SELECT kind, scope, name, address FROM throttle_budgets WHERE kind = ?1 AND name = ?2 AND scope != ?3",
                               [.text(kind), .text(name), .integer(ThrottleScope.address.rawValue)],
                               row: StoreRows.throttleKey).compactMap { $0 }
        }
    }

    public func forgetThrottleBudgets(lastUsedBefore before: Int64) throws -> Int {
        try translatingErrors("forgetting login throttle budgets") {
            try database.run("DELETE FROM throttle_budgets WHERE last_used < ?1", [.integer(before)])
        }
    }

    private static func values(_ key: ThrottleKey) -> [SQLiteValue] {
        [.text(key.kind), .integer(key.scope.rawValue), .text(key.name), .text(key.address)]
    }
}
