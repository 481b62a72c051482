import SQL

/// The roster: entries by name, each claimed by at most one account (by id).
extension SQLStore: RosterStore {
    @discardableResult
    package func putRosterEntry(_ entry: RosterEntry) throws -> RosterPut {
        try translatingErrors("adding to the roster") {
            try sql.transaction {
                let role = entry.isAdmin ? "admin" : "student"
                if try rosterEntry(named: entry.name) != nil {
                    try sql.execute(
                        """
                        UPDATE roster SET display_name = \(entry.displayName), role = \(role)
                        WHERE \(folded("name")) = \(folded("\(entry.name)"))
                        """)
                    return .updated
                }
                // A new entry is the existing account's of that name, unless it holds another already.
                let account = try user(named: entry.name)
                if let account,
                    let held = try sql.queryFirst("SELECT name FROM roster WHERE claimed_by = \(account.id)", { $0.string("name") })
                {
                    throw StoreError(.conflict, "\(account.name) has an account that holds the roster name \(held) already")
                }
                let claimant: SQLValue = account.map { .integer($0.id) } ?? .null
                try sql.execute(
                    """
                    INSERT INTO roster (name, display_name, role, added_at, claimed_by)
                    VALUES (\(entry.name), \(entry.displayName), \(role), \(entry.addedAt), \(claimant))
                    """)
                return account == nil ? .added : .claimedByExisting
            }
        }
    }

    package func rosterEntry(named name: String) throws -> RosterEntry? {
        try translatingErrors("looking up the roster") {
            try sql.queryFirst(
                """
                SELECT name, display_name, role, added_at, claimed_by FROM roster WHERE \(folded("name")) = \(folded("\(name)"))
                """, Self.rosterEntry)
        }
    }

    package func rosterMembers() throws -> [RosterMemberRecord] {
        try translatingErrors("listing the roster") {
            try sql.query(
                """
                SELECT r.name, r.display_name, r.role, r.added_at, r.claimed_by,
                       u.name AS account, u.must_change_password, u.last_sign_in_at
                FROM roster r LEFT JOIN users u ON u.id = r.claimed_by
                ORDER BY \(engine.bytewise(folded("r.name")))
                """, Self.member)
        }
    }

    @discardableResult
    package func removeRosterEntry(named name: String) throws -> RosterMemberRecord {
        try translatingErrors("taking a name off the roster") {
            try sql.transaction {
                guard
                    let member = try sql.queryFirst(
                        """
                        SELECT r.name, r.display_name, r.role, r.added_at, r.claimed_by,
                               u.name AS account, u.must_change_password, u.last_sign_in_at
                        FROM roster r LEFT JOIN users u ON u.id = r.claimed_by
                        WHERE \(folded("r.name")) = \(folded("\(name)"))
                        """, Self.member)
                else {
                    throw StoreError(.notFound, "\(name) is not on the roster")
                }
                try sql.execute("DELETE FROM roster WHERE \(folded("name")) = \(folded("\(name)"))")
                return member
            }
        }
    }

    package func clearRoster() throws -> Int {
        try translatingErrors("clearing the roster") { try sql.execute("DELETE FROM roster") }
    }

    private static func rosterEntry(_ row: any SQLRow) -> RosterEntry {
        RosterEntry(
            name: row.string("name"), displayName: row.string("display_name"), isAdmin: row.string("role") == "admin",
            addedAt: row.int64("added_at"), claimedBy: row.isNull("claimed_by") ? nil : row.int64("claimed_by"))
    }

    private static func member(_ row: any SQLRow) -> RosterMemberRecord {
        let claimed = !row.isNull("claimed_by")
        return RosterMemberRecord(
            entry: rosterEntry(row), account: claimed ? row.string("account") : nil,
            hasOneTimePassword: claimed && row.bool("must_change_password"),
            lastSignIn: claimed ? row.int64("last_sign_in_at") : 0)
    }
}
