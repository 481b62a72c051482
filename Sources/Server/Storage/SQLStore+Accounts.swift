import SQL

/// Users: accounts, admin rights and the `admin users` summary.
extension SQLStore: AccountStore {
    package func createUser(name: String, passwordHash: String, isAdmin: Bool, at: Int64) throws -> UserRecord {
        do {
            return try translatingErrors("creating user") {
                try sql.transaction {
                    // A roster name another account claimed (and was renamed away from) stays theirs.
                    if let entry = try rosterEntry(named: name, notClaimedBy: 0), let owner = entry.claimedBy {
                        throw StoreError(.conflict, "\(entry.name) is on the roster for \(try user(id: owner)?.name ?? "someone else")")
                    }
                    let id =
                        try sql.queryFirst(
                            """
                            INSERT INTO users (name, password_hash, is_admin, created_at)
                            VALUES (\(name), \(passwordHash), \(isAdmin), \(at)) RETURNING id
                            """
                        ) { $0.int64("id") } ?? 0
                    try sql.execute(
                        """
                        UPDATE roster SET claimed_by = \(id) WHERE \(folded("name")) = \(folded("\(name)")) AND claimed_by IS NULL
                        """)
                    return UserRecord(id: id, name: name, passwordHash: passwordHash, isAdmin: isAdmin, createdAt: at)
                }
            }
        } catch let error as StoreError where error.kind == .conflict && !error.message.contains("roster") {
            throw StoreError(.conflict, "a user named \(name) already exists")
        }
    }

    package func user(named name: String) throws -> UserRecord? {
        try translatingErrors("looking up user") {
            try sql.queryFirst("\(Self.userColumns) WHERE \(folded("name")) = \(folded("\(name)"))", StoreRows.user)
        }
    }

    package func user(id: Int64) throws -> UserRecord? {
        try translatingErrors("looking up user") {
            try sql.queryFirst("\(Self.userColumns) WHERE id = \(id)", StoreRows.user)
        }
    }

    package func lockUser(id: Int64) throws {
        try translatingErrors("locking user") { try engine.lockRow(table: "users", keyColumn: "id", key: id) }
    }

    package func setAdmin(userID: Int64, isAdmin: Bool) throws {
        try translatingErrors("changing admin flag") {
            let changed = try sql.execute("UPDATE users SET is_admin = \(isAdmin) WHERE id = \(userID)")
            guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
        }
    }

    package func setPasswordHash(userID: Int64, passwordHash: String) throws {
        try translatingErrors("changing password") {
            // A new password is never a one-time one any more, and a one-time one it replaces is
            // remembered (its hash), so it can never be chosen again (the instructor's file has it).
            let changed = try sql.execute(
                """
                UPDATE users SET one_time_hash = CASE WHEN must_change_password THEN password_hash ELSE one_time_hash END,
                                 password_hash = \(passwordHash), must_change_password = \(false)
                WHERE id = \(userID)
                """)
            guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
        }
    }

    package func rehashPassword(userID: Int64, from old: String, to new: String) throws -> Bool {
        try translatingErrors("storing a password again") {
            try sql.execute("UPDATE users SET password_hash = \(new) WHERE id = \(userID) AND password_hash = \(old)") > 0
        }
    }

    package func recordSignIn(userID: Int64, at: Int64) throws {
        try translatingErrors("recording a sign-in") {
            try sql.execute("UPDATE users SET last_sign_in_at = \(at) WHERE id = \(userID)")
        }
    }

    package func userSummaries(classID: Int64?, now: Int64) throws -> [UserSummary] {
        try translatingErrors("listing users") {
            // A class's: its members, and the site admins, who act in it as its owners.
            let members: SQL =
                classID.map { "WHERE u.is_admin OR u.id IN (SELECT m.user_id FROM memberships m WHERE m.class_id = \($0))" } ?? ""
            let roster: SQL = classID.map { "r.claimed_by = u.id AND r.class_id = \($0)" } ?? "r.claimed_by = u.id"
            let suspensions: SQL = classID.map { "p.user_id = u.id AND p.class_id = \($0)" } ?? "p.user_id = u.id"
            // Posts and views in the class only: what a student does in another is not this class's.
            let posts = Self.snaps(ofClass: classID, as: "s.")
            let views: SQL = classID == nil ? "" : "WHERE snap_id IN (SELECT id FROM snaps WHERE \(Self.snaps(ofClass: classID)))"
            // One statement: one snapshot on either engine.
            return try sql.query(
                """
                SELECT u.name, u.is_admin, u.created_at, u.disabled, u.must_change_password, u.last_sign_in_at,
                       (SELECT count(*) FROM snaps s WHERE s.poster_id = u.id AND \(posts)) AS post_count,
                       coalesce(v.view_count, 0) AS view_count,
                       coalesce((SELECT min(r.name) FROM roster r WHERE \(roster)), '') AS roster_name,
                       coalesce((SELECT min(r.display_name) FROM roster r WHERE \(roster)), '') AS display_name,
                       coalesce((SELECT max(p.until) FROM suspensions p WHERE \(suspensions) AND p.until > \(now)), 0) AS suspended_until
                FROM users u
                -- One pass over views (SQLite keeps no index by viewer: schema version 6).
                LEFT JOIN (SELECT viewer_id, count(*) AS view_count FROM views \(views) GROUP BY viewer_id) v
                       ON v.viewer_id = u.id
                \(members)
                ORDER BY \(engine.bytewise(folded("u.name"))), u.id
                """
            ) { row in
                var summary = UserSummary(
                    name: row.string("name"), isAdmin: row.bool("is_admin"), createdAt: row.int64("created_at"),
                    postCount: row.int64("post_count"), viewCount: row.int64("view_count"))
                summary.displayName = row.string("display_name")
                summary.rosterName = row.string("roster_name")
                summary.isDisabled = row.bool("disabled")
                summary.mustChangePassword = row.bool("must_change_password")
                summary.suspendedUntil = row.int64("suspended_until")
                summary.lastSignIn = row.int64("last_sign_in_at")
                return summary
            }
        }
    }

    package func setDisabled(userID: Int64, disabled: Bool) throws {
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

    package func setMustChangePassword(userID: Int64, _ must: Bool) throws {
        try translatingErrors("marking a one-time password") {
            try sql.execute("UPDATE users SET must_change_password = \(must) WHERE id = \(userID)")
        }
    }

    package func renameUser(userID: Int64, to name: String) throws {
        do {
            try translatingErrors("renaming user") {
                try sql.transaction {
                    if let holder = try user(named: name), holder.id != userID {
                        throw StoreError(.conflict, "a user named \(name) already exists")
                    }
                    // The account's own roster entry stays its own; someone else's may not be taken.
                    if let entry = try rosterEntry(named: name, notClaimedBy: userID) {
                        if let owner = entry.claimedBy {
                            throw StoreError(.conflict, "\(entry.name) is on the roster for \(try user(id: owner)?.name ?? "someone else")")
                        }
                        throw StoreError(
                            .conflict,
                            "\(entry.name) is on the roster for someone who has not registered yet; "
                                + "take it off the roster first (snapshare admin roster remove \(entry.name))")
                    }
                    let changed = try sql.execute("UPDATE users SET name = \(name) WHERE id = \(userID)")
                    guard changed > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
                }
            }
        } catch let error as StoreError where error.kind == .conflict && !error.message.contains("roster") {
            throw StoreError(.conflict, "a user named \(name) already exists")
        }
    }

    package func deleteUser(userID: Int64) throws -> DeletedUser {
        try translatingErrors("deleting user") {
            try sql.transaction {
                func count(_ table: String, _ column: String) throws -> Int {
                    try sql.queryFirst("SELECT count(*) AS n FROM \(raw: table) WHERE \(raw: column) = \(userID)") { $0.int("n") } ?? 0
                }
                let roster = try sql.queryFirst("SELECT name FROM roster WHERE claimed_by = \(userID)") { $0.string("name") }
                let gone = DeletedUser(
                    snaps: try count("snaps", "poster_id"), pins: try count("pins", "user_id"), movies: try count("movies", "user_id"),
                    rosterName: roster)
                // Their snaps, views, pins, albums, movies, sessions, reports, suspension and roster entry cascade.
                let deleted = try sql.execute("DELETE FROM users WHERE id = \(userID)")
                guard deleted > 0 else { throw StoreError(.notFound, "no user with id \(userID)") }
                engine.bytesDeleted()
                return gone
            }
        }
    }

    static let userColumns: SQL =
        "SELECT id, name, password_hash, is_admin, created_at, disabled, must_change_password, one_time_hash FROM users"
}
