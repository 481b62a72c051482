import PostgreSQL

/// Throttle budgets shared by every instance. A change holds an advisory lock per key (keys in
/// one order), so two instances changing the same budget take turns and neither loses the
/// other's attempt; rows need not exist to be locked.
extension PostgresStore: ThrottleStore {
    /// One advisory lock per key, held until the transaction ends, taken in one order and in one
    /// round trip (a select list is evaluated left to right; were two instances ever to meet in
    /// another order, PostgreSQL's deadlock check breaks one off and the writer runs it again).
    public func lockThrottleBudgets(_ keys: [ThrottleKey]) throws {
        let ordered = Self.lockOrder(keys)
        guard !ordered.isEmpty else { return }
        let locks = ordered.indices.map { "pg_advisory_xact_lock(hashtextextended($\($0 + 1), 0)) AS lock\($0)" }
        try translatingErrors("locking login throttle") {
            try connection.query("SELECT " + locks.joined(separator: ", "),
                                 ordered.map { .text([$0.kind, String($0.scope.rawValue), $0.name, $0.address].joined(separator: "\u{1F}")) })
        }
    }

    public func saveThrottleBudget(_ key: ThrottleKey, _ budget: ThrottleBudget?) throws {
        try translatingErrors("saving login throttle") {
            if let budget {
                try connection.execute("""
                    INSERT INTO throttle_budgets (kind, scope, name, address, failures, pending, next_slot, last_used)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                    ON CONFLICT (kind, scope, name, address)
                    DO UPDATE SET failures = $5, pending = $6, next_slot = $7, last_used = $8
                    """, Self.values(key) + [.text(StoreRows.timesText(budget.failures)), .text(StoreRows.timesText(budget.pending)),
                                             .integer(budget.nextSlot), .integer(budget.lastUsed)])
            } else {
                try connection.execute("DELETE FROM throttle_budgets WHERE kind = $1 AND scope = $2 AND name = $3 AND address = $4",
                                       Self.values(key))
            }
        }
    }

    /// Every key's row in one round trip.
    public func throttleBudgets(_ keys: [ThrottleKey]) throws -> [ThrottleKey: ThrottleBudget] {
        let unique = Array(Set(keys))
        guard !unique.isEmpty else { return [:] }
        let tuples = unique.indices.map { "($\($0 * 4 + 1), $\($0 * 4 + 2)::bigint, $\($0 * 4 + 3), $\($0 * 4 + 4))" }
        return try translatingErrors("reading login throttle") {
            var stored: [ThrottleKey: ThrottleBudget] = [:]
            for row in try connection.query("""
                SELECT kind, scope, name, address, failures, pending, next_slot, last_used FROM throttle_budgets
                WHERE (kind, scope, name, address) IN (\(tuples.joined(separator: ", ")))
                """, unique.flatMap(Self.values)) {
                if let key = StoreRows.throttleKey(row) { stored[key] = StoreRows.throttleBudget(row) }
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
