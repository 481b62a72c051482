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
            let changed = try sql.execute("UPDATE users SET password_hash = \(passwordHash) WHERE id = \(userID)")
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

    static let userColumns: SQL = "SELECT id, name, password_hash, is_admin, created_at FROM users"
}
