import PostgreSQL

extension PostgresStore: AccountStore, SessionStore, MapStateStore {
    public func createUser(name: String, passwordHash: String, isAdmin: Bool, at: Int64) throws -> UserRecord {
        do {
            return try translatingErrors("creating user") {
                let id = try connection.query("""
                    INSERT INTO users (name, password_hash, is_admin, created_at) VALUES ($1, $2, $3, $4) RETURNING id
                    """, [.text(name), .text(passwordHash), .bool(isAdmin), .integer(at)])[0].int64("id")
                return UserRecord(id: id, name: name, passwordHash: passwordHash, isAdmin: isAdmin, createdAt: at)
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw StoreError(.conflict, "a user named \(name) already exists")
        }
    }

    public func user(named name: String) throws -> UserRecord? {
        try translatingErrors("looking up user") {
            try connection.query(Self.userColumns + " WHERE ascii_lower(name) = ascii_lower($1)", [.text(name)]).first.map(StoreRows.user)
        }
    }

    public func user(id: Int64) throws -> UserRecord? {
        try translatingErrors("looking up user") {
            try connection.query(Self.userColumns + " WHERE id = $1", [.integer(id)]).first.map(StoreRows.user)
        }
    }

    public func setAdmin(userID: Int64, isAdmin: Bool) throws {
        try translatingErrors("changing admin flag") {
            let changed = try connection.execute("UPDATE users SET is_admin = $2 WHERE id = $1", [.integer(userID), .bool(isAdmin)])
            guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
        }
    }

    public func setPasswordHash(userID: Int64, passwordHash: String) throws {
        try translatingErrors("changing password") {
            let changed = try connection.execute("UPDATE users SET password_hash = $2 WHERE id = $1",
                                                 [.integer(userID), .text(passwordHash)])
            guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
        }
    }

    public func userSummaries() throws -> [UserSummary] {
        try translatingErrors("listing users") {
            // One statement: one snapshot.
            try connection.query("""
                SELECT u.name, u.is_admin, u.created_at,
                       (SELECT count(*) FROM snaps s WHERE s.poster_id = u.id) AS post_count,
                       (SELECT count(*) FROM views v WHERE v.viewer_id = u.id) AS view_count
                FROM users u
                ORDER BY ascii_lower(u.name), u.id
                """).map { row in
                UserSummary(name: row.string("name"), isAdmin: row.bool("is_admin"), createdAt: row.int64("created_at"),
                            postCount: row.int64("post_count"), viewCount: row.int64("view_count"))
            }
        }
    }

    static let userColumns = "SELECT id, name, password_hash, is_admin, created_at FROM users"


    // MARK: Sessions

    public func createSession(userID: Int64, tokenHash: [UInt8], at: Int64, expiresAt: Int64) throws {
        try translatingErrors("creating session") {
            try connection.execute("""
                INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_used_at) VALUES ($1, $2, $3, $4, $3)
                """, [.bytes(tokenHash), .integer(userID), .integer(at), .integer(expiresAt)])
        }
    }

    public func sessionUser(tokenHash: [UInt8], now: Int64) throws -> UserRecord? {
        try translatingErrors("looking up session") {
            try connection.query("""
                SELECT u.id, u.name, u.password_hash, u.is_admin, u.created_at
                FROM sessions s JOIN users u ON u.id = s.user_id
                WHERE s.token_hash = $1 AND s.expires_at > $2
                """, [.bytes(tokenHash), .integer(now)]).first.map(StoreRows.user)
        }
    }

    public func deleteSession(tokenHash: [UInt8]) throws {
        try translatingErrors("deleting session") {
            try connection.execute("DELETE FROM sessions WHERE token_hash = $1", [.bytes(tokenHash)])
        }
    }

    public func deleteExpiredSessions(now: Int64) throws -> Int {
        try translatingErrors("deleting expired sessions") {
            try connection.execute("DELETE FROM sessions WHERE expires_at <= $1", [.integer(now)])
        }
    }

    public func deleteSessions(userID: Int64, keeping tokenHash: [UInt8]?) throws -> Int {
        try translatingErrors("ending sessions") {
            // An empty hash matches no session: "keep nothing".
            try connection.execute("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2",
                                   [.integer(userID), .bytes(tokenHash ?? [])])
        }
    }

    public func accessEpoch() throws -> Int64 {
        try translatingErrors("reading the access epoch") {
            try connection.query("SELECT value FROM access_epoch WHERE id = 1")[0].int64("value")
        }
    }

    public func sessionAccess(tokenHashes: [[UInt8]], now: Int64) throws -> [SessionAccess] {
        try translatingErrors("checking sessions") {
            try connection.transaction {
                try tokenHashes.map { hash in
                    let isAdmin = try connection.query("""
                        SELECT u.is_admin FROM sessions s JOIN users u ON u.id = s.user_id
                        WHERE s.token_hash = $1 AND s.expires_at > $2
                        """, [.bytes(hash), .integer(now)]).first.map { $0.bool("is_admin") }
                    return SessionAccess(tokenHash: hash, isAdmin: isAdmin)
                }
            }
        }
    }

    // MARK: Map views

    public func mapState(userID: Int64) throws -> MapStateRecord? {
        try translatingErrors("reading map state") {
            try connection.query("SELECT center_latitude, center_longitude, zoom FROM map_states WHERE user_id = $1",
                                 [.integer(userID)]).first.map {
                MapStateRecord(centerLatitude: $0.double("center_latitude"), centerLongitude: $0.double("center_longitude"),
                               zoom: $0.double("zoom"))
            }
        }
    }

    public func saveMapState(_ state: MapStateRecord, userID: Int64, at: Int64) throws {
        try translatingErrors("saving map state") {
            try connection.execute("""
                INSERT INTO map_states (user_id, center_latitude, center_longitude, zoom, updated_at) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (user_id) DO UPDATE SET center_latitude = excluded.center_latitude,
                    center_longitude = excluded.center_longitude, zoom = excluded.zoom, updated_at = excluded.updated_at
                """, [.integer(userID), .double(state.centerLatitude), .double(state.centerLongitude), .double(state.zoom), .integer(at)])
        }
    }
}
