import SQL

/// The rosters: each class's entries by name, each claimed by at most one account (by id), and
/// an account claiming at most one entry per class.
extension SQLStore: RosterStore {
    @discardableResult
    package func putRosterEntry(_ entry: RosterEntry, classID: Int64) throws -> RosterPut {
        try translatingErrors("adding to the roster") {
            try sql.transaction {
                let role = entry.isAdmin ? "admin" : "student"
                if try rosterEntry(named: entry.name, classID: classID) != nil {
                    try sql.execute(
                        """
                        UPDATE roster SET display_name = \(entry.displayName), role = \(role)
                        WHERE class_id = \(classID) AND \(folded("name")) = \(folded("\(entry.name)"))
                        """)
                    return .updated
                }
                // A new entry is the existing account's of that name, unless it holds another already.
                let account = try user(named: entry.name)
                if let account,
                    let held = try sql.queryFirst(
                        "SELECT name FROM roster WHERE class_id = \(classID) AND claimed_by = \(account.id)", { $0.string("name") })
                {
                    throw StoreError(.conflict, "\(account.name) has an account that holds the roster name \(held) already")
                }
                let claimant: SQLValue = account.map { .integer($0.id) } ?? .null
                try sql.execute(
                    """
                    INSERT INTO roster (class_id, name, display_name, role, added_at, claimed_by)
                    VALUES (\(classID), \(entry.name), \(entry.displayName), \(role), \(entry.addedAt), \(claimant))
                    """)
                return account == nil ? .added : .claimedByExisting
            }
        }
    }

    package func rosterEntry(named name: String, classID: Int64) throws -> RosterEntry? {
        try translatingErrors("looking up the roster") {
            try sql.queryFirst(
                """
                SELECT name, display_name, role, added_at, claimed_by FROM roster
                WHERE class_id = \(classID) AND \(folded("name")) = \(folded("\(name)"))
                """, Self.rosterEntry)
        }
    }

    package func claimRosterEntry(named name: String, classID: Int64, userID: Int64) throws -> RosterEntry? {
        try translatingErrors("claiming a roster name") {
            try sql.transaction {
                try sql.execute(
                    """
                    UPDATE roster SET claimed_by = \(userID)
                    WHERE class_id = \(classID) AND \(folded("name")) = \(folded("\(name)")) AND claimed_by IS NULL
                    """)
                return try rosterEntry(named: name, classID: classID)
            }
        }
    }

    /// An entry of that name on any class's roster that `userID` has not claimed (the claimed
    /// ones first), or nil: a name another account holds, or that someone may still register.
    func rosterEntry(named name: String, notClaimedBy userID: Int64) throws -> RosterEntry? {
        try sql.queryFirst(
            """
            SELECT name, display_name, role, added_at, claimed_by FROM roster
            WHERE \(folded("name")) = \(folded("\(name)")) AND (claimed_by IS NULL OR claimed_by <> \(userID))
            ORDER BY claimed_by IS NULL, class_id LIMIT 1
            """, Self.rosterEntry)
    }

    package func rosterMembers(classID: Int64) throws -> [RosterMemberRecord] {
        try translatingErrors("listing the roster") {
            try sql.query(
                """
                SELECT r.name, r.display_name, r.role, r.added_at, r.claimed_by,
                       u.name AS account, u.must_change_password, u.last_sign_in_at
                FROM roster r LEFT JOIN users u ON u.id = r.claimed_by
                WHERE r.class_id = \(classID)
                ORDER BY \(engine.bytewise(folded("r.name")))
                """, Self.member)
        }
    }

    @discardableResult
    package func removeRosterEntry(named name: String, classID: Int64) throws -> RosterMemberRecord {
        try translatingErrors("taking a name off the roster") {
            try sql.transaction {
                guard
                    let member = try sql.queryFirst(
                        """
                        SELECT r.name, r.display_name, r.role, r.added_at, r.claimed_by,
                               u.name AS account, u.must_change_password, u.last_sign_in_at
                        FROM roster r LEFT JOIN users u ON u.id = r.claimed_by
                        WHERE r.class_id = \(classID) AND \(folded("r.name")) = \(folded("\(name)"))
                        """, Self.member)
                else {
                    throw StoreError(.notFound, "\(name) is not on the roster")
                }
                try sql.execute("DELETE FROM roster WHERE class_id = \(classID) AND \(folded("name")) = \(folded("\(name)"))")
                return member
            }
        }
    }

    package func clearRoster(classID: Int64?) throws -> Int {
        try translatingErrors("clearing the roster") {
            try sql.execute("DELETE FROM roster WHERE \(classID.map { "class_id = \($0)" as SQL } ?? "TRUE")")
        }
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
