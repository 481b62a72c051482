import SQL

/// Throttle budgets: one row per key (`ThrottleStore.updateThrottleBudgets` puts these together).
/// Budgets are stored as text lists of times ("1700000000000,1700000000500"); a list holds at
/// most a budget's allowance.
extension SQLStore: ThrottleStore {
    package func lockThrottleBudgets(_ keys: [ThrottleKey]) throws {
        try translatingErrors("locking login throttle") { try engine.lockThrottleBudgets(keys) }
    }

    package func saveThrottleBudget(_ key: ThrottleKey, _ budget: ThrottleBudget?) throws {
        try translatingErrors("saving login throttle") {
            guard let budget else {
                try sql.execute("DELETE FROM throttle_budgets WHERE \(Self.matching(key))")
                return
            }
            try sql.execute(
                """
                INSERT INTO throttle_budgets (kind, scope, name, address, failures, pending, next_slot, last_used)
                VALUES (\(key.kind), \(key.scope), \(key.name), \(key.address), \(Self.timesText(budget.failures)),
                        \(Self.timesText(budget.pending)), \(budget.nextSlot), \(budget.lastUsed))
                ON CONFLICT (kind, scope, name, address)
                DO UPDATE SET failures = excluded.failures, pending = excluded.pending, next_slot = excluded.next_slot,
                              last_used = excluded.last_used
                """)
        }
    }

    /// Every key's row in one round trip.
    package func throttleBudgets(_ keys: [ThrottleKey]) throws -> [ThrottleKey: ThrottleBudget] {
        let unique = Array(Set(keys))
        guard !unique.isEmpty else { return [:] }
        let rows = SQL(joining: unique.map { "(\($0.kind), \($0.scope), \($0.name), \($0.address))" }, separator: ", ")
        return try translatingErrors("reading login throttle") {
            var stored: [ThrottleKey: ThrottleBudget] = [:]
            _ = try sql.query(
                """
                SELECT kind, scope, name, address, failures, pending, next_slot, last_used FROM throttle_budgets
                WHERE (kind, scope, name, address) IN (VALUES \(rows))
                """
            ) { row in
                if let key = Self.throttleKey(row) { stored[key] = Self.throttleBudget(row) }
            }
            return stored
        }
    }

    package func throttleKeys(kind: String, name: String) throws -> [ThrottleKey] {
        try translatingErrors("listing login throttle budgets") {
            try sql.query(
                """
                SELECT kind, scope, name, address FROM throttle_budgets
                WHERE kind = \(kind) AND name = \(name) AND scope <> \(ThrottleScope.address)
                """, Self.throttleKey
            ).compactMap { $0 }
        }
    }

    package func throttleKeys(kind: String, address: String) throws -> [ThrottleKey] {
        try translatingErrors("listing login throttle budgets") {
            try sql.query(
                """
                SELECT kind, scope, name, address FROM throttle_budgets
                WHERE kind = \(kind) AND address = \(address) AND scope <> \(ThrottleScope.name)
                """, Self.throttleKey
            ).compactMap { $0 }
        }
    }

    package func forgetThrottleBudgets(lastUsedBefore before: Int64) throws -> Int {
        try translatingErrors("forgetting login throttle budgets") {
            try sql.execute("DELETE FROM throttle_budgets WHERE last_used < \(before)")
        }
    }

    // MARK: Rows

    private static func matching(_ key: ThrottleKey) -> SQL {
        "kind = \(key.kind) AND scope = \(key.scope) AND name = \(key.name) AND address = \(key.address)"
    }

    private static func throttleBudget(_ row: any SQLRow) -> ThrottleBudget {
        ThrottleBudget(
            failures: times(row.string("failures")), pending: times(row.string("pending")),
            nextSlot: row.int64("next_slot"), lastUsed: row.int64("last_used"))
    }

    private static func throttleKey(_ row: any SQLRow) -> ThrottleKey? {
        guard let scope = ThrottleScope(rawValue: row.int64("scope")) else { return nil }
        return ThrottleKey(kind: row.string("kind"), scope: scope, name: row.string("name"), address: row.string("address"))
    }

    private static func timesText(_ times: [Int64]) -> String { times.map(String.init).joined(separator: ",") }

    private static func times(_ text: String) -> [Int64] { text.split(separator: ",").compactMap { Int64($0) } }
}

extension ThrottleScope: SQLBindable {}
