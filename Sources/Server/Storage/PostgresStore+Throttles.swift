import PostgreSQL

/// Throttle budgets shared by every instance. The keys' rows are created if missing and locked
/// (an upsert) in one order within a change, so two instances changing the same budget take
/// turns and neither loses the other's attempt.
extension PostgresStore: ThrottleStore {
    public func updateThrottleBudgets<R>(_ keys: [ThrottleKey],
                                         _ change: (inout [ThrottleKey: ThrottleBudget]) throws -> R) throws -> R {
        try translatingErrors("updating login throttle") {
            try connection.transaction {
                var stored: [ThrottleKey: ThrottleBudget] = [:]
                for key in Self.lockOrder(keys) {
                    // Made if missing and locked in one statement: an upsert waits for whoever holds
                    // the row and, if that one deleted it, inserts it anew, so the row is ours either way.
                    let row = try connection.query("""
                        INSERT INTO throttle_budgets (kind, scope, name, address, failures, pending, next_slot, last_used)
                        VALUES ($1, $2, $3, $4, '', '', 0, 0)
                        ON CONFLICT (kind, scope, name, address) DO UPDATE SET kind = EXCLUDED.kind
                        RETURNING failures, pending, next_slot, last_used
                        """, Self.values(key))[0]
                    // A row with nothing in it was only just made, to be locked: the budget is missing.
                    let budget = StoreRows.throttleBudget(row)
                    if !(budget.isIdle && budget.lastUsed == 0) { stored[key] = budget }
                }
                var budgets = stored
                let result = try change(&budgets)
                var writes = StoreRows.throttleWrites(stored: stored, changed: budgets)
                // The rows made only to be locked go again unless the change filled them.
                for key in Set(keys) where stored[key] == nil && budgets[key].map(\.isIdle) ?? true {
                    writes.append((key, nil))
                }
                for (key, budget) in writes {
                    if let budget {
                        try connection.execute("""
                            UPDATE throttle_budgets SET failures = $5, pending = $6, next_slot = $7, last_used = $8
                            WHERE kind = $1 AND scope = $2 AND name = $3 AND address = $4
                            """, Self.values(key) + [.text(StoreRows.timesText(budget.failures)), .text(StoreRows.timesText(budget.pending)),
                                                     .integer(budget.nextSlot), .integer(budget.lastUsed)])
                    } else {
                        try connection.execute("DELETE FROM throttle_budgets WHERE kind = $1 AND scope = $2 AND name = $3 AND address = $4",
                                               Self.values(key))
                    }
                }
                return result
            }
        }
    }

    public func throttleBudgets(_ keys: [ThrottleKey]) throws -> [ThrottleKey: ThrottleBudget] {
        try translatingErrors("reading login throttle") {
            var stored: [ThrottleKey: ThrottleBudget] = [:]
            for key in keys {
                let row = try connection.query("""
                    SELECT failures, pending, next_slot, last_used FROM throttle_budgets
                    WHERE kind = $1 AND scope = $2 AND name = $3 AND address = $4
                    """, Self.values(key)).first
                // A row with nothing in it is another transaction's, made only to be locked.
                if let budget = row.map(StoreRows.throttleBudget), !(budget.isIdle && budget.lastUsed == 0) {
                    stored[key] = budget
                }
            }
            return stored
        }
    }

    public func throttleKeys(kind: String, name: String) throws -> [ThrottleKey] {
        try translatingErrors("listing login throttle budgets") {
            try connection.query("SELECT kind, scope, name, address FROM throttle_budgets WHERE kind = $1 AND name = $2 AND scope <> $3",
                                 [.text(kind), .text(name), .integer(ThrottleScope.address.rawValue)]).compactMap(StoreRows.throttleKey)
        }
    }

    public func forgetThrottleBudgets(lastUsedBefore before: Int64) throws -> Int {
        try translatingErrors("forgetting login throttle budgets") {
            try connection.execute("DELETE FROM throttle_budgets WHERE last_used < $1", [.integer(before)])
        }
    }

    /// One order for every instance, so two changes of overlapping keys cannot deadlock each
    /// other (a batch holding other jobs' locks still can: see `TypedStorageJob.mayRunAgain`).
    private static func lockOrder(_ keys: [ThrottleKey]) -> [ThrottleKey] {
        Set(keys).sorted { ($0.kind, $0.scope.rawValue, $0.name, $0.address) < ($1.kind, $1.scope.rawValue, $1.name, $1.address) }
    }

    private static func values(_ key: ThrottleKey) -> [PostgresValue] {
        [.text(key.kind), .integer(key.scope.rawValue), .text(key.name), .text(key.address)]
    }
}
