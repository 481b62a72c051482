import SQLite
import Wire

/// Pins, albums and photos.
///
/// Ownership is checked in SQL (`JOIN pins ... AND user_id = ?`), never after reading a row, so
/// no path can hand out another user's pin or photo by forgetting a check.
extension SQLiteStore {
    // MARK: Pins

    public func insertPin(_ pin: NewPin) throws -> PinRecord {
        do {
            return try translatingErrors("dropping pin") {
                try database.transaction {
                    try database.run("""
                        INSERT INTO pins (user_id, latitude, longitude, created_at) VALUES (?1, ?2, ?3, ?4)
                        """, [.integer(pin.userID), .real(pin.latitude), .real(pin.longitude), .integer(pin.createdAt)])
                    let id = database.lastInsertRowID
                    try database.run("""
                        INSERT INTO albums (pin_id, state, provider, page, per_page, updated_at)
                        VALUES (?1, 0, ?2, ?3, ?4, ?5)
                        """, [.integer(id), .text(pin.provider), .int(max(1, pin.firstPage)), .int(pin.perPage),
                              .integer(pin.createdAt)])
                    // A new pin's album is downloading and has no slots yet: nothing to read back.
                    return PinRecord(id: id, userID: pin.userID, latitude: pin.latitude, longitude: pin.longitude,
                                     createdAt: pin.createdAt, albumState: .downloading, expected: 0, done: 0)
                }
            }
        } catch let error as StoreError where error.kind == .notFound {
            throw StoreError(.notFound, "user \(pin.userID) does not exist")
        }
    }

    public func pinCount(userID: Int64) throws -> Int {
        try translatingErrors("counting pins") {
            Int(try database.scalar("SELECT count(*) FROM pins WHERE user_id = ?1", [.integer(userID)]))
        }
    }

    public func pins(userID: Int64) throws -> [PinRecord] {
        try translatingErrors("listing pins") {
            try database.query(Self.pinsOfUserSQL, [.integer(userID)], row: StoreRows.pin)
        }
    }

    public func pin(id: Int64, userID: Int64) throws -> PinRecord? {
        try translatingErrors("looking up pin") {
            try database.queryFirst(Self.pinByIDSQL, [.integer(id), .integer(userID)], row: StoreRows.pin)
        }
    }

    public func pin(atOffset offset: Int, userID: Int64) throws -> PinRecord? {
        guard offset >= 0 else { return nil }
        return try translatingErrors("picking pin") {
            try database.queryFirst(Self.pinsOfUserSQL + "\nLIMIT 1 OFFSET ?2", [.integer(userID), .int(offset)],
                                    row: StoreRows.pin)
        }
    }

    public func deletePin(id: Int64, userID: Int64) throws {
        try translatingErrors("deleting pin") {
            // The album, the photos and their bytes go with it (ON DELETE CASCADE).
            let deleted = try database.run("DELETE FROM pins WHERE id = ?1 AND user_id = ?2", [.integer(id), .integer(userID)])
            guard deleted > 0 else { throw StoreError(.notFound, "you have no pin \(id)") }
        }
    }

    // MARK: Albums

    public func album(pinID: Int64, userID: Int64) throws -> AlbumRecord? {
        try translatingErrors("reading album") {
            try database.transaction {
                guard let pin = try database.queryFirst(Self.pinByIDSQL, [.integer(pinID), .integer(userID)], row: StoreRows.pin) else {
                    return nil
                }
                return try albumRecord(of: pin)
            }
        }
    }

    public func albumForDownload(pinID: Int64) throws -> AlbumRecord? {
        try translatingErrors("reading album") {
            try database.transaction {
                guard let pin = try database.queryFirst(Self.pinSelect + "\nWHERE p.id = ?1", [.integer(pinID)],
                                                        row: StoreRows.pin) else {
                    return nil
                }
                return try albumRecord(of: pin)
            }
        }
    }

    public func downloadingAlbumPins() throws -> [Int64] {
        try translatingErrors("finding unfinished albums") {
            try database.query("SELECT pin_id FROM albums WHERE state = 0 ORDER BY pin_id") { $0.int64(at: 0) }
        }
    }

    public func recordSearch(_ search: AlbumSearch) throws -> Bool {
        try translatingErrors("recording album search") {
            try database.transaction {
                let state: AlbumState = search.slots.isEmpty ? .empty : .downloading
                let changed = try database.run("""
                    UPDATE albums SET searched = 1, page = ?3, pages = ?4, total = ?5, state = ?6, error = '', updated_at = ?7
                    WHERE pin_id = ?1 AND generation = ?2 AND state = 0 AND searched = 0
                    """, [.integer(search.pinID), .integer(search.generation), .int(max(1, search.page)), .int(max(0, search.pages)),
                          .int(max(0, search.total)), .integer(Int64(state.rawValue)), .integer(search.at)])
                guard changed > 0 else { return false }
                // Old rows cannot exist for a collection not yet searched, but a half-finished
                // earlier attempt must never leave two slots at one position.
                try database.run("DELETE FROM photos WHERE pin_id = ?1", [.integer(search.pinID)])
                for (position, slot) in search.slots.enumerated() {
                    try database.run("""
                        INSERT INTO photos (pin_id, position, provider_photo_id, reference, title, tags, place, latitude, longitude)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                        """, [.integer(search.pinID), .int(position), .text(slot.id), .text(slot.reference),
                              .text(slot.title), .text(slot.tags), .text(slot.place), .real(slot.latitude), .real(slot.longitude)])
                }
                return true
            }
        }
    }

    public func failAlbum(pinID: Int64, generation: Int64, message: String, at: Int64) throws -> Bool {
        try translatingErrors("marking album failed") {
            try database.run("""
                UPDATE albums SET state = 3, error = ?3, updated_at = ?4 WHERE pin_id = ?1 AND generation = ?2 AND state = 0
                """, [.integer(pinID), .integer(generation), .text(message), .integer(at)]) > 0
        }
    }

    public func restartAlbum(pinID: Int64, page: Int, provider: String, perPage: Int, at: Int64) throws {
        try translatingErrors("starting a new collection") {
            try database.transaction {
                let changed = try database.run("""
                    UPDATE albums SET state = 0, error = '', provider = ?2, searched = 0, page = ?3, per_page = ?4,
                                      generation = generation + 1, lease_owner = '', lease_until = 0, updated_at = ?5
                    WHERE pin_id = ?1
                    """, [.integer(pinID), .text(provider), .int(max(1, page)), .int(perPage), .integer(at)])
                guard changed > 0 else { throw StoreError(.notFound, "no album for pin \(pinID)") }
                // Their bytes and thumbnails go with them (ON DELETE CASCADE).
                try database.run("DELETE FROM photos WHERE pin_id = ?1", [.integer(pinID)])
            }
        }
    }

    public func storePhotoImage(_ image: FetchedPhoto, at: Int64) throws -> Bool {
        try translatingErrors("storing photo") {
            try database.transaction {
                // The state check makes a late result for a removed or replaced slot a no-op.
                guard let pinID = try database.queryFirst("""
                    UPDATE photos SET state = 1, width = ?2, height = ?3, byte_count = ?4, error = '' WHERE id = ?1 AND state = 0
                    RETURNING pin_id
                    """, [.integer(image.photoID), .int(image.width), .int(image.height), .int(image.image.count)],
                    row: { $0.int64(at: 0) }) else { return false }
                try database.run("INSERT INTO photo_images (photo_id, sha256, bytes) VALUES (?1, ?2, ?3)",
                                 [.integer(image.photoID), .blob(image.imageSHA256), .blob(image.image)])
                try database.run("INSERT INTO photo_thumbnails (photo_id, sha256, bytes) VALUES (?1, ?2, ?3)",
                                 [.integer(image.photoID), .blob(image.thumbnailSHA256), .blob(image.thumbnail)])
                _ = try completeAlbumIfDone(pinID: pinID, at: at)
                return true
            }
        }
    }

    public func failPhoto(id: Int64, message: String, at: Int64) throws -> Bool {
        try translatingErrors("marking photo failed") {
            try database.transaction {
                guard let pinID = try database.queryFirst(
                    "UPDATE photos SET state = 2, error = ?2 WHERE id = ?1 AND state = 0 RETURNING pin_id",
                    [.integer(id), .text(message)], row: { $0.int64(at: 0) }) else { return false }
                _ = try completeAlbumIfDone(pinID: pinID, at: at)
                return true
            }
        }
    }

    public func completeAlbumIfDone(pinID: Int64, at: Int64) throws -> Bool {
        try translatingErrors("completing album") {
            try database.transaction {
                guard let album = try database.queryFirst(
                    "SELECT searched FROM albums WHERE pin_id = ?1 AND state = 0", [.integer(pinID)], row: { $0.int64(at: 0) != 0 }
                ), album else {
                    return false
                }
                let counts = try database.queryFirst("""
                    SELECT count(*) FILTER (WHERE state = 0) AS pending, count(*) FILTER (WHERE state = 1) AS ready,
                           count(*) FILTER (WHERE state = 2) AS failed
                    FROM photos WHERE pin_id = ?1
                    """, [.integer(pinID)]) { (pending: $0.int64("pending"), ready: $0.int64("ready"), failed: $0.int64("failed")) }
                guard let counts, counts.pending == 0 else { return false }
                if counts.ready == 0 && counts.failed > 0 {
                    let reason = try database.queryFirst(
                        "SELECT error FROM photos WHERE pin_id = ?1 AND state = 2 AND error != '' ORDER BY position LIMIT 1",
                        [.integer(pinID)], row: { $0.string(at: 0) })
                    try database.run("UPDATE albums SET state = 3, error = ?2, updated_at = ?3 WHERE pin_id = ?1",
                                     [.integer(pinID), .text(StoreRows.albumFailure(failedPhotos: counts.failed, firstReason: reason)),
                                      .integer(at)])
                } else {
                    try database.run("UPDATE albums SET state = 1, updated_at = ?2 WHERE pin_id = ?1", [.integer(pinID), .integer(at)])
                }
                return true
            }
        }
    }

    // MARK: Photos

    public func photo(id: Int64, userID: Int64) throws -> PhotoRecord? {
        try translatingErrors("looking up photo") {
            try database.queryFirst(Self.photoSelect + """

                JOIN pins p ON p.id = f.pin_id
                WHERE f.id = ?1 AND p.user_id = ?2
                """, [.integer(id), .integer(userID)], row: StoreRows.photo)
        }
    }

    public func withPhotoBytes<R>(id: Int64, userID: Int64, thumbnail: Bool,
                                  _ body: (PhotoRecord, [UInt8], any StoredBytes) throws -> R) throws -> R {
        try translatingErrors("reading photo") {
            try database.transaction {
                guard let photo = try photo(id: id, userID: userID) else { throw StoreError(.notFound, "you have no photo \(id)") }
                try StoreRows.requireReady(photo)
                let table = thumbnail ? "photo_thumbnails" : "photo_images"
                guard let sha256 = try database.queryFirst("SELECT sha256 FROM \(table) WHERE photo_id = ?1", [.integer(id)],
                                                           row: { $0.blob(at: 0) }) else {
                    throw StoreError(.internalError, "ready photo \(id) has no bytes")
                }
                // The row holding the digest holds the bytes.
                return try database.withStoredBytes(table: table, column: "bytes", rowID: id) { try body(photo, sha256, $0) }
            }
        }
    }

    public func deletePhoto(id: Int64, userID: Int64, at: Int64) throws {
        try translatingErrors("removing photo") {
            try database.transaction {
                guard let photo = try photo(id: id, userID: userID) else {
                    throw StoreError(.notFound, "you have no photo \(id)")
                }
                // Bytes and thumbnail go with it; the other photos keep their positions.
                try database.run("DELETE FROM photos WHERE id = ?1", [.integer(id)])
                if photo.state == .pending {
                    _ = try completeAlbumIfDone(pinID: photo.pinID, at: at)
                }
            }
        }
    }

    public func readyPhotoCount(pinID: Int64) throws -> Int {
        try translatingErrors("counting photos") {
            Int(try database.scalar("SELECT count(*) FROM photos WHERE pin_id = ?1 AND state = 1", [.integer(pinID)]))
        }
    }

    public func readyPhoto(pinID: Int64, atOffset offset: Int) throws -> PhotoRecord? {
        guard offset >= 0 else { return nil }
        return try translatingErrors("picking photo") {
            try database.queryFirst(Self.photoSelect + """

                WHERE f.pin_id = ?1 AND f.state = 1
                ORDER BY f.position
                LIMIT 1 OFFSET ?2
                """, [.integer(pinID), .int(offset)], row: StoreRows.photo)
        }
    }

    // MARK: Helpers

    private func albumRecord(of pin: PinRecord) throws -> AlbumRecord? {
        let photos = try database.query(Self.photoSelect + """

            WHERE f.pin_id = ?1
            ORDER BY f.position
            """, [.integer(pin.id)], row: StoreRows.photo)
        return try database.queryFirst("""
            SELECT error, provider, searched, page, pages, per_page, total, generation FROM albums WHERE pin_id = ?1
            """, [.integer(pin.id)]) { row in
            // The state is the pin's summary's, read from the same row by `pinSelect`.
            StoreRows.album(row, pin: pin, photos: photos)
        }
    }

    // MARK: SQL

    /// Columns of a `PinRecord`: the counts come from `photos_by_state`.
    static let pinSelect = """
        SELECT p.id, p.user_id, p.latitude, p.longitude, p.created_at, a.state,
               (SELECT count(*) FROM photos f WHERE f.pin_id = p.id) AS expected,
               (SELECT count(*) FROM photos f WHERE f.pin_id = p.id AND f.state != 0) AS done
        FROM pins p
        JOIN albums a ON a.pin_id = p.id
        """
    /// ?1 user.
    static let pinsOfUserSQL = pinSelect + """

        WHERE p.user_id = ?1
        ORDER BY p.id
        """
    /// ?1 pin, ?2 user.
    static let pinByIDSQL = pinSelect + """

        WHERE p.id = ?1 AND p.user_id = ?2
        """


    /// Columns of a `PhotoRecord` (never the bytes), from `photos f`.
    static let photoSelect = """
        SELECT f.id, f.pin_id, f.position, f.state, f.provider_photo_id, f.reference, f.title, f.tags, f.place,
               f.latitude, f.longitude, f.width, f.height, f.byte_count, f.error
        FROM photos f
        """

}

extension SQLiteStore {
    public func claimAlbumLease(pinID: Int64, owner: String, now: Int64, until: Int64) throws -> Bool {
        try translatingErrors("leasing album download") {
            try database.run("""
                UPDATE albums SET lease_owner = ?2, lease_until = ?4
                WHERE pin_id = ?1 AND state = 0 AND (lease_owner = ?2 OR lease_until <= ?3)
                """, [.integer(pinID), .text(owner), .integer(now), .integer(until)]) > 0
        }
    }

    public func albumsWithExpiredLeases(now: Int64) throws -> [Int64] {
        try translatingErrors("finding abandoned albums") {
            try database.query("SELECT pin_id FROM albums WHERE state = 0 AND lease_until <= ?1 ORDER BY pin_id",
                               [.integer(now)]) { $0.int64(at: 0) }
        }
    }
}
