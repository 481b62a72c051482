import SQL

/// Pins and their download leases.
///
/// States are written as the numbers they are stored as (album 0 downloading, 1 ready,
/// 2 empty, 3 failed; photo 0 pending, 1 ready, 2 failed), never as parameters: the partial
/// index of downloading albums serves only a query whose text says `state = 0`.
///
/// Ownership is checked in SQL (`… AND user_id = \(userID)`), never after reading a row, so no
/// path can hand out another user's pin or photo by forgetting a check.
extension SQLStore: PinStore {
    package func insertPin(_ pin: NewPin) throws -> PinRecord {
        do {
            return try translatingErrors("dropping pin") {
                try sql.transaction {
                    guard
                        let id = try sql.queryFirst(
                            """
                            INSERT INTO pins (user_id, latitude, longitude, created_at)
                            VALUES (\(pin.userID), \(pin.latitude), \(pin.longitude), \(pin.createdAt)) RETURNING id
                            """, { $0.int64("id") })
                    else {
                        throw StoreError(.internalError, "a pin's insert returned no id")
                    }
                    try sql.execute(
                        """
                        INSERT INTO albums (pin_id, state, provider, page, per_page, updated_at)
                        VALUES (\(id), 0, \(pin.provider), \(max(1, pin.firstPage)), \(pin.perPage), \(pin.createdAt))
                        """)
                    // A new pin's album is downloading and has no slots yet: nothing to read back.
                    return PinRecord(
                        id: id, userID: pin.userID, latitude: pin.latitude, longitude: pin.longitude,
                        createdAt: pin.createdAt, albumState: .downloading, expected: 0, done: 0)
                }
            }
        } catch let error as StoreError where error.kind == .notFound {
            throw StoreError(.notFound, "user \(pin.userID) does not exist")
        }
    }

    package func pinCount(userID: Int64) throws -> Int {
        try translatingErrors("counting pins") {
            try sql.queryFirst("SELECT count(*) AS n FROM pins WHERE user_id = \(userID)") { $0.int("n") } ?? 0
        }
    }

    package func pins(userID: Int64) throws -> [PinRecord] {
        try translatingErrors("listing pins") {
            try sql.query(pinsOfUser(userID), StoreRows.pin)
        }
    }

    package func pin(id: Int64, userID: Int64) throws -> PinRecord? {
        try translatingErrors("looking up pin") {
            try sql.queryFirst(pinByID(id, userID: userID), StoreRows.pin)
        }
    }

    package func pin(atOffset offset: Int, userID: Int64) throws -> PinRecord? {
        guard offset >= 0 else { return nil }
        return try translatingErrors("picking pin") {
            try sql.queryFirst("\(pinsOfUser(userID))\nLIMIT 1 OFFSET \(offset)", StoreRows.pin)
        }
    }

    package func deletePin(id: Int64, userID: Int64) throws {
        try translatingErrors("deleting pin") {
            // The album, the photos and their bytes go with it (ON DELETE CASCADE).
            let deleted = try sql.execute("DELETE FROM pins WHERE id = \(id) AND user_id = \(userID)")
            guard deleted > 0 else { throw StoreError(.notFound, "you have no pin \(id)") }
        }
    }

    /// One statement: of instances racing for an album, the row's lock lets one update it and
    /// the others then see the new lease and change nothing.
    package func claimAlbumLease(pinID: Int64, owner: String, now: Int64, until: Int64) throws -> Bool {
        try translatingErrors("leasing album download") {
            try sql.execute(
                """
                UPDATE albums SET lease_owner = \(owner), lease_until = \(until)
                WHERE pin_id = \(pinID) AND state = 0 AND (lease_owner = \(owner) OR lease_until <= \(now))
                """) > 0
        }
    }

    package func albumsWithExpiredLeases(now: Int64) throws -> [Int64] {
        try translatingErrors("finding abandoned albums") {
            try sql.query(
                """
                SELECT pin_id FROM albums WHERE state = 0 AND lease_until <= \(now) ORDER BY pin_id
                """
            ) { $0.int64("pin_id") }
        }
    }

    // MARK: Statements

    /// Columns of a `PinRecord`; the counts of its album's slots come with it.
    static let pinSelect: SQL = """
        SELECT p.id, p.user_id, p.latitude, p.longitude, p.created_at, a.state,
               (SELECT count(*) FROM photos f WHERE f.pin_id = p.id) AS expected,
               (SELECT count(*) FROM photos f WHERE f.pin_id = p.id AND f.state <> 0) AS done
        FROM pins p
        JOIN albums a ON a.pin_id = p.id
        """

    func pinsOfUser(_ userID: Int64) -> SQL {
        "\(Self.pinSelect)\nWHERE p.user_id = \(userID)\nORDER BY p.id"
    }

    func pinByID(_ id: Int64, userID: Int64) -> SQL {
        "\(Self.pinSelect)\nWHERE p.id = \(id) AND p.user_id = \(userID)"
    }
}
