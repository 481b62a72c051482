import SQL

/// Sessions, keyed by the SHA-256 of their token, and the access epoch (bumped by triggers on
/// session deletions and account changes, in both engines' schemas).
extension SQLStore: SessionStore {
    package func createSession(userID: Int64, tokenHash: [UInt8], at: Int64, expiresAt: Int64) throws {
        try translatingErrors("creating session") {
            try sql.execute(
                """
                INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_used_at)
                VALUES (\(tokenHash), \(userID), \(at), \(expiresAt), \(at))
                """)
        }
    }

    package func sessionUser(tokenHash: [UInt8], now: Int64) throws -> UserRecord? {
        try translatingErrors("looking up session") {
            try sql.queryFirst(
                """
                SELECT u.id, u.name, u.password_hash, u.is_admin, u.created_at, u.disabled, u.must_change_password, u.one_time_hash
                FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.token_hash = \(tokenHash) AND s.expires_at > \(now)
                """, StoreRows.user)
        }
    }

    package func deleteSession(tokenHash: [UInt8]) throws {
        try translatingErrors("deleting session") {
            try sql.execute("DELETE FROM sessions WHERE token_hash = \(tokenHash)")
        }
    }

    package func deleteExpiredSessions(now: Int64) throws -> Int {
        try translatingErrors("deleting expired sessions") {
            try sql.execute("DELETE FROM sessions WHERE expires_at <= \(now)")
        }
    }

    package func deleteSessions(userID: Int64, keeping tokenHash: [UInt8]?) throws -> Int {
        try translatingErrors("ending sessions") {
            // No token hash is empty, so the empty one keeps nothing.
            try sql.execute("DELETE FROM sessions WHERE user_id = \(userID) AND token_hash <> \(tokenHash ?? [])")
        }
    }

    package func accessEpoch() throws -> Int64 {
        try translatingErrors("reading the access epoch") {
            try sql.queryFirst("SELECT value FROM access_epoch WHERE id = 1") { $0.int64("value") } ?? 0
        }
    }

    package func sessionAccess(sessions: [(tokenHash: [UInt8], userID: Int64)], now: Int64) throws -> [SessionAccess] {
        try translatingErrors("checking sessions") {
            try sql.transaction {
                try sessions.map { session in
                    let user = try sql.queryFirst(
                        """
                        SELECT u.is_admin, u.name FROM sessions s JOIN users u ON u.id = s.user_id
                        WHERE s.token_hash = \(session.tokenHash) AND s.expires_at > \(now)
                        """
                    ) { ($0.bool("is_admin"), $0.string("name")) }
                    var access = SessionAccess(tokenHash: session.tokenHash, isAdmin: user?.0, name: user?.1 ?? "")
                    if let isAdmin = user?.0 {
                        access.classes = try memberships(userID: session.userID).map {
                            CurrentClass(id: $0.classRecord.id, handle: $0.classRecord.handle, role: $0.role)
                        }
                        access.defaultClass = try defaultClass(userID: session.userID, isSiteAdmin: isAdmin)
                    }
                    if user == nil {
                        // Why it went, when it went with the account: deleted, or disabled.
                        let disabled = try sql.queryFirst("SELECT disabled FROM users WHERE id = \(session.userID)") { $0.bool("disabled") }
                        access.closure =
                            switch disabled {
                            case nil: .deleted
                            case true?: .disabled
                            case false?: nil
                            }
                    }
                    return access
                }
            }
        }
    }
}
