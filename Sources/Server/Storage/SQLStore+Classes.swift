import SQL

/// Classes and memberships.
extension SQLStore: ClassStore {
    package func createClass(_ new: NewClass, ownerID: Int64?, at: Int64) throws -> ClassRecord {
        try translatingErrors("making a class") {
            try sql.transaction {
                if try classRecord(handle: new.handle) != nil {
                    throw StoreError(.conflict, "the class handle \(new.handle) is taken")
                }
                if let code = new.code, try classRecord(code: code) != nil {
                    throw StoreError(.conflict, "that class code is another class's")
                }
                let settings = new.settings
                let id = try sql.queryFirst(
                    """
                    INSERT INTO classes (handle, name, code, registration, moderation, snap_ttl_ms, posts_per_hour,
                                         stored_bytes, created_at)
                    VALUES (\(new.handle), \(new.name), \(new.code), \(settings.registration?.rawValue),
                            \(settings.moderation?.rawValue), \(settings.snapTTLMilliseconds), \(settings.postsPerHour.map(Int64.init)),
                            \(settings.storedBytes), \(at))
                    RETURNING id
                    """
                ) { $0.int64("id") }
                guard let id, let record = try classRecord(id: id) else {
                    throw StoreError(.internalError, "the class \(new.handle) was not stored")
                }
                if let ownerID {
                    try setMember(userID: ownerID, classID: id, role: .owner, at: at)
                }
                // A class starts with the feeds a new server's first class has (schema version 1).
                for feed in ["Memes", "Dog Spots", "Random"] {
                    try sql.execute("INSERT INTO feeds (class_id, name, created_at) VALUES (\(id), \(feed), \(at))")
                }
                return record
            }
        }
    }

    package func classRecord(id: Int64) throws -> ClassRecord? {
        try translatingErrors("looking up a class") {
            try sql.queryFirst("SELECT \(Self.allClassColumns) FROM classes WHERE id = \(id)", Self.classRecord)
        }
    }

    package func classRecord(handle: String) throws -> ClassRecord? {
        try translatingErrors("looking up a class") {
            try sql.queryFirst("SELECT \(Self.allClassColumns) FROM classes WHERE handle = \(handle)", Self.classRecord)
        }
    }

    package func classRecord(code: String) throws -> ClassRecord? {
        try translatingErrors("looking up a class code") {
            try sql.queryFirst("SELECT \(Self.allClassColumns) FROM classes WHERE code = \(code)", Self.classRecord)
        }
    }

    package func classTakingServerCode() throws -> ClassRecord? {
        try translatingErrors("looking up a class code") {
            try sql.queryFirst("SELECT \(Self.allClassColumns) FROM classes WHERE code IS NULL ORDER BY id LIMIT 1", Self.classRecord)
        }
    }

    package func firstClass() throws -> ClassRecord? {
        try translatingErrors("looking up a class") {
            try sql.queryFirst("SELECT \(Self.allClassColumns) FROM classes ORDER BY id LIMIT 1", Self.classRecord)
        }
    }

    package func allClasses() throws -> [ClassRecord] {
        try translatingErrors("listing classes") {
            try sql.query("SELECT \(Self.allClassColumns) FROM classes ORDER BY \(engine.bytewise("handle"))", Self.classRecord)
        }
    }

    package func memberships(userID: Int64) throws -> [ClassMembership] {
        try translatingErrors("listing an account's classes") {
            try sql.query(
                """
                SELECT \(Self.classColumns("c.")), m.role, m.joined_at
                FROM memberships m JOIN classes c ON c.id = m.class_id
                WHERE m.user_id = \(userID)
                ORDER BY m.joined_at, m.class_id
                """
            ) { row in
                ClassMembership(classRecord: try Self.classRecord(row), role: try Self.role(row), joinedAt: row.int64("joined_at"))
            }
        }
    }

    package func role(userID: Int64, classID: Int64) throws -> ClassRole? {
        try translatingErrors("looking up a membership") {
            try sql.queryFirst("SELECT role FROM memberships WHERE user_id = \(userID) AND class_id = \(classID)", Self.role)
        }
    }

    package func members(classID: Int64) throws -> [ClassMember] {
        try translatingErrors("listing a class's members") {
            try sql.query(
                """
                SELECT m.user_id, u.name, m.role, m.joined_at
                FROM memberships m JOIN users u ON u.id = m.user_id
                WHERE m.class_id = \(classID)
                ORDER BY CASE m.role WHEN 'owner' THEN 0 WHEN 'instructor' THEN 1 WHEN 'ta' THEN 2 ELSE 3 END,
                         \(engine.bytewise(folded("u.name"))), m.user_id
                """
            ) { row in
                ClassMember(
                    userID: row.int64("user_id"), name: row.string("name"), role: try Self.role(row), joinedAt: row.int64("joined_at"))
            }
        }
    }

    @discardableResult
    package func setMember(userID: Int64, classID: Int64, role: ClassRole, at: Int64) throws -> Bool {
        try translatingErrors("naming a member's role") {
            try sql.transaction {
                guard let current = try self.role(userID: userID, classID: classID) else {
                    try sql.execute(
                        """
                        INSERT INTO memberships (class_id, user_id, role, joined_at) VALUES (\(classID), \(userID), \(role.rawValue), \(at))
                        """)
                    return true
                }
                if current == .owner && role != .owner { try refuseLastOwner(classID: classID, leaving: "stop being its owner") }
                try sql.execute(
                    "UPDATE memberships SET role = \(role.rawValue) WHERE class_id = \(classID) AND user_id = \(userID)")
                return false
            }
        }
    }

    package func removeMember(userID: Int64, classID: Int64) throws {
        try translatingErrors("taking a member out of a class") {
            try sql.transaction {
                guard let current = try role(userID: userID, classID: classID) else {
                    throw StoreError(.notFound, "not a member of that class")
                }
                if current == .owner { try refuseLastOwner(classID: classID, leaving: "leave it") }
                try sql.execute("DELETE FROM memberships WHERE class_id = \(classID) AND user_id = \(userID)")
            }
        }
    }

    package func unreadCounts(viewerID: Int64, now: Int64) throws -> [Int64: Int64] {
        try translatingErrors("counting unread snaps") {
            // The same unread as a feed's (feedSummaries), summed over each class's feeds.
            let rows = try sql.query(
                """
                SELECT f.class_id, count(*) AS unread FROM snaps s JOIN feeds f ON f.id = s.feed_id
                WHERE f.class_id IN (SELECT m.class_id FROM memberships m WHERE m.user_id = \(viewerID))
                  AND \(Self.unread(by: viewerID, now: now))
                GROUP BY f.class_id
                """
            ) { ($0.int64("class_id"), $0.int64("unread")) }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Refuses a change that would leave the class without an owner. Runs in the change's
    /// transaction, after locking the class's row on PostgreSQL, so two owners leaving at once
    /// cannot both pass.
    private func refuseLastOwner(classID: Int64, leaving: String) throws {
        try engine.lockRow(table: "classes", keyColumn: "id", key: classID)
        let owners = try sql.queryFirst(
            "SELECT count(*) AS n FROM memberships WHERE class_id = \(classID) AND role = 'owner'"
        ) { $0.int64("n") }
        if (owners ?? 0) <= 1 {
            throw StoreError(.conflict, "the last owner of a class cannot \(leaving): name another owner first")
        }
    }

    private static let allClassColumns = classColumns("")

    private static func classColumns(_ prefix: String) -> SQL {
        let names = [
            "id", "handle", "name", "code", "registration", "moderation", "snap_ttl_ms", "posts_per_hour", "stored_bytes",
            "created_at", "ended_at",
        ]
        return SQL(raw: names.map { prefix + $0 }.joined(separator: ", "))
    }

    private static func classRecord(_ row: any SQLRow) throws -> ClassRecord {
        func optional(_ column: String) -> Int64? { row.isNull(column) ? nil : row.int64(column) }
        func mode<M: RawRepresentable<String>>(_ column: String, _ type: M.Type) throws -> M? {
            guard !row.isNull(column) else { return nil }
            guard let mode = M(rawValue: row.string(column)) else {
                throw StoreError(.corrupt, "class \(row.int64("id")) has an unknown \(column)")
            }
            return mode
        }
        let settings = ClassSettings(
            registration: try mode("registration", RegistrationMode.self), moderation: try mode("moderation", ModerationMode.self),
            snapTTLMilliseconds: optional("snap_ttl_ms"), postsPerHour: optional("posts_per_hour").map { Int($0) },
            storedBytes: optional("stored_bytes"))
        return ClassRecord(
            id: row.int64("id"), handle: row.string("handle"), name: row.string("name"),
            code: row.isNull("code") ? nil : row.string("code"), settings: settings, createdAt: row.int64("created_at"),
            endedAt: row.int64("ended_at"))
    }

    private static func role(_ row: any SQLRow) throws -> ClassRole {
        guard let role = ClassRole(rawValue: row.string("role")) else { throw StoreError(.corrupt, "a membership has an unknown role") }
        return role
    }
}
