import SQL

/// Users: accounts, admin rights and the `admin users` summary.
extension SQLStore: AccountStore {
    public func createUser(name: String, passwordHash: String, isAdmin: Bool, at: Int64) throws -> UserRecord {
        do {
            return try translatingErrors("creating user") {
                let id = try sql.queryFirst("""
                    INSERT INTO users (name, password_hash, is_admin, created_at)
                    VALUES (\(name), \(passwordHash), \(isAdmin), \(at)) RETURNING id
                    """) { $0.int64("id") }
                return UserRecord(id: id ?? 0, name: name, passwordHash: passwordHash, isAdmin: isAdmin, createdAt: at)
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw StoreError(.conflict, "a user named \(name) already exists")
        }
    }

    public func user(named name: String) throws -> UserRecord? {
        try translatingErrors("looking up user") {
            try sql.queryFirst("\(Self.userColumns) WHERE \(folded("name")) = \(folded("\(name)"))", StoreRows.user)
        }
    }

    public func user(id: Int64) throws -> UserRecord? {
        try translatingErrors("looking up user") {
            try sql.queryFirst("\(Self.userColumns) WHERE id = \(id)", StoreRows.user)
        }
    }

    public func lockUser(id: Int64) throws {
        try translatingErrors("locking user") { try engine.lockRow(table: "users", keyColumn: "id", key: id) }
    }

    public func setAdmin(userID: Int64, isAdmin: Bool) throws {
        try translatingErrors("changing admin flag") {
            let changed = try sql.execute("UPDATE users SET is_admin = \(isAdmin) WHERE id = \(userID)")
            guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
        }
    }

    public func setPasswordHash(userID: Int64, passwordHash: String) throws {
        try translatingErrors("changing password") {
            // A new password is never a one-time one any more.
            let changed = try sql.execute("UPDATE users SET password_hash = \(passwordHash), must_change_password = \(false) WHERE id = \(userID)")
            guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
        }
    }

    public func userSummaries() throws -> [UserSummary] {
        try translatingErrors("listing users") {
            // One statement: one snapshot on either engine.
            try sql.query("""
                SELECT u.name, u.is_admin, u.created_at,
                       (SELECT count(*) FROM snaps s WHERE s.poster_id = u.id) AS post_count,
                       coalesce(v.view_count, 0) AS view_count
                FROM users u
                -- One pass over views (SQLite keeps no index by viewer: schema version 6).
                LEFT JOIN (SELECT viewer_id, count(*) AS view_count FROM views GROUP BY viewer_id) v
                       ON v.viewer_id = u.id
                ORDER BY \(engine.bytewise(folded("u.name"))), u.id
                """) { row in
                UserSummary(name: row.string("name"), isAdmin: row.bool("is_admin"), createdAt: row.int64("created_at"),
                            postCount: row.int64("post_count"), viewCount: row.int64("view_count"))
            }
        }
    }

    public func setDisabled(userID: Int64, disabled: Bool) throws {
        try translatingErrors("disabling an account") {
            try sql.transaction {
                let changed = try sql.execute("UPDATE users SET disabled = \(disabled) WHERE id = \(userID)")
                guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
                if disabled {
                    try sql.execute("DELETE FROM sessions WHERE user_id = \(userID)")
                    try sql.execute("DELETE FROM device_tokens WHERE user_id = \(userID)")
                }
            }
        }
    }

    public func setMustChangePassword(userID: Int64, _ must: Bool) throws {
        try translatingErrors("marking a one-time password") {
            try sql.execute("UPDATE users SET must_change_password = \(must) WHERE id = \(userID)")
        }
    }

    public func renameUser(userID: Int64, to name: String) throws {
        do {
            try translatingErrors("renaming user") {
                try sql.transaction {
                    if let entry = try rosterEntry(named: name), let owner = try user(id: userID),
                       entry.name.lowercased() != owner.name.lowercased() {
                        throw StoreError(.conflict, "\(entry.name) is on the roster for someone else")
                    }
                    let changed = try sql.execute("UPDATE users SET name = \(name) WHERE id = \(userID)")
                    guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
                }
            }
        } catch let error as StoreError where error.kind == .conflict && !error.message.contains("roster") {
            throw StoreError(.conflict, "a user named \(name) already exists")
        }
    }

    public func deleteUser(userID: Int64) throws -> DeletedUser {
        try translatingErrors("deleting user") {
            try sql.transaction {
                func count(_ table: String, _ column: String) throws -> Int {
                    try sql.queryFirst("SELECT count(*) AS n FROM \(raw: table) WHERE \(raw: column) = \(userID)") { $0.int("n") } ?? 0
                }
                let gone = DeletedUser(snaps: try count("snaps", "poster_id"), pins: try count("pins", "user_id"), movies: try count("movies", "user_id"))
                // Their snaps, views, pins, albums, movies, sessions, reports and suspension cascade.
                let deleted = try sql.execute("DELETE FROM users WHERE id = \(userID)")
                guard deleted > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
                engine.bytesDeleted()
                return gone
            }
        }
    }

    public func putRosterEntry(_ entry: RosterEntry) throws {
        try translatingErrors("adding to the roster") {
            try sql.transaction {
                try sql.execute("DELETE FROM roster WHERE \(folded("name")) = \(folded("\(entry.name)"))")
                try sql.execute("""
                    INSERT INTO roster (name, display_name, role, added_at)
                    VALUES (\(entry.name), \(entry.displayName), \(entry.isAdmin ? "admin" : "student"), \(entry.addedAt))
                    """)
            }
        }
    }

    public func rosterEntry(named name: String) throws -> RosterEntry? {
        try translatingErrors("looking up the roster") {
            try sql.queryFirst("SELECT name, display_name, role, added_at FROM roster WHERE \(folded("name")) = \(folded("\(name)"))") { row in
                RosterEntry(name: row.string("name"), displayName: row.string("display_name"), isAdmin: row.string("role") == "admin",
                            addedAt: row.int64("added_at"))
            }
        }
    }

    static let userColumns: SQL = "SELECT id, name, password_hash, is_admin, created_at, disabled, must_change_password FROM users"
}
