import SQLite

/// Users: accounts, admin rights and the `admin users` summary.
extension SQLiteStore {
    public func createUser(name: String, passwordHash: String, isAdmin: Bool, at: Int64) throws -> UserRecord {
        do {
            return try translatingErrors("creating user") {
                try database.run("""
                    INSERT INTO users (name, password_hash, is_admin, created_at) VALUES (?1, ?2, ?3, ?4)
                    """, [.text(name), .text(passwordHash), .bool(isAdmin), .integer(at)])
                return UserRecord(id: database.lastInsertRowID, name: name, passwordHash: passwordHash,
                                  isAdmin: isAdmin, createdAt: at)
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw StoreError(.conflict, "a user named \(name) already exists")
        }
    }

    public func user(named name: String) throws -> UserRecord? {
        try translatingErrors("looking up user") {
            try database.queryFirst(Self.userColumns + " WHERE name = ?1", [.text(name)], row: StoreRows.user)
        }
    }

    public func user(id: Int64) throws -> UserRecord? {
        try translatingErrors("looking up user") {
            try database.queryFirst(Self.userColumns + " WHERE id = ?1", [.integer(id)], row: StoreRows.user)
        }
    }

    public func setAdmin(userID: Int64, isAdmin: Bool) throws {
        try translatingErrors("changing admin flag") {
            let changed = try database.run("UPDATE users SET is_admin = ?2 WHERE id = ?1",
                                           [.integer(userID), .bool(isAdmin)])
            guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
        }
    }

    public func setPasswordHash(userID: Int64, passwordHash: String) throws {
        try translatingErrors("changing password") {
            let changed = try database.run("UPDATE users SET password_hash = ?2 WHERE id = ?1",
                                           [.integer(userID), .text(passwordHash)])
            guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
        }
    }

    public func userSummaries() throws -> [UserSummary] {
        try translatingErrors("listing users") {
            try database.transaction {
                try database.query("""
                    SELECT u.name, u.is_admin, u.created_at,
                           (SELECT count(*) FROM snaps s WHERE s.poster_id = u.id) AS post_count,
                           coalesce(v.view_count, 0) AS view_count
                    FROM users u
                    -- One pass over views (they have no index by viewer: schema version 6).
                    LEFT JOIN (SELECT viewer_id, count(*) AS view_count FROM views GROUP BY viewer_id) v
                           ON v.viewer_id = u.id
                    ORDER BY u.name, u.id
                    """) { row in
                    UserSummary(name: row.string("name"), isAdmin: row.bool("is_admin"), createdAt: row.int64("created_at"),
                                postCount: row.int64("post_count"), viewCount: row.int64("view_count"))
                }
            }
        }
    }

    // MARK: Rows

    static let userColumns = "SELECT id, name, password_hash, is_admin, created_at FROM users"

}
