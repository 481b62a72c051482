import SQLite

/// Sessions, keyed by the SHA-256 of their token, and the access epoch (bumped by triggers).
extension SQLiteStore {
    public func createSession(userID: Int64, tokenHash: [UInt8], at: Int64, expiresAt: Int64) throws {
        _ = try translatingErrors("creating session") {
            try database.run("""
                INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_used_at)
                VALUES (?1, ?2, ?3, ?4, ?3)
                """, [.blob(tokenHash), .integer(userID), .integer(at), .integer(expiresAt)])
        }
    }

    public func sessionUser(tokenHash: [UInt8], now: Int64) throws -> UserRecord? {
        try translatingErrors("looking up session") {
            try database.queryFirst("""
                SELECT u.id, u.name, u.password_hash, u.is_admin, u.created_at
                FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.token_hash = ?1 AND s.expires_at > ?2
                """, [.blob(tokenHash), .integer(now)], row: StoreRows.user)
        }
    }

    public func deleteSession(tokenHash: [UInt8]) throws {
        _ = try translatingErrors("deleting session") {
            try database.run("DELETE FROM sessions WHERE token_hash = ?1", [.blob(tokenHash)])
        }
    }

    public func deleteExpiredSessions(now: Int64) throws -> Int {
        try translatingErrors("deleting expired sessions") {
            try database.run("DELETE FROM sessions WHERE expires_at <= ?1", [.integer(now)])
        }
    }

    public func deleteSessions(userID: Int64, keeping tokenHash: [UInt8]?) throws -> Int {
        try translatingErrors("ending sessions") {
            try database.run("DELETE FROM sessions WHERE user_id = ?1 AND token_hash IS NOT ?2",
                             [.integer(userID), tokenHash.map { .blob($0) } ?? .null])
        }
    }

    public func accessEpoch() throws -> Int64 {
        try translatingErrors("reading the access epoch") {
            try database.scalar("SELECT value FROM access_epoch WHERE id = 1")
        }
    }

    public func sessionAccess(tokenHashes: [[UInt8]], now: Int64) throws -> [SessionAccess] {
        try translatingErrors("checking sessions") {
            try database.transaction {
                try tokenHashes.map { hash in
                    let isAdmin = try database.queryFirst("""
                        SELECT u.is_admin FROM sessions s JOIN users u ON u.id = s.user_id
                        WHERE s.token_hash = ?1 AND s.expires_at > ?2
                        """, [.blob(hash), .integer(now)]) { $0.int64(at: 0) != 0 }
                    return SessionAccess(tokenHash: hash, isAdmin: isAdmin)
                }
            }
        }
    }
}
