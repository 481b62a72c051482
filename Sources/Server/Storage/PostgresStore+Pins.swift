import PostgreSQL
import SQLite
import Wire

/// Pins, albums and photos on PostgreSQL, with SQLite's rules (see `SQLiteStore+Pins`).
extension PostgresStore: PinStore {
    // MARK: Pins

    public func insertPin(_ pin: NewPin) throws -> PinRecord {
        do {
            return try translatingErrors("dropping pin") {
                try connection.transaction {
                    let id = try connection.query("""
                        INSERT INTO pins (user_id, latitude, longitude, created_at) VALUES ($1, $2, $3, $4) RETURNING id
                        """, [.integer(pin.userID), .double(pin.latitude), .double(pin.longitude), .integer(pin.createdAt)])[0].int64("id")
                    try connection.execute("""
                        INSERT INTO albums (pin_id, state, provider, page, per_page, updated_at) VALUES ($1, 0, $2, $3, $4, $5)
                        """, [.integer(id), .text(pin.provider), .integer(Int64(max(1, pin.firstPage))), .integer(Int64(pin.perPage)),
                              .integer(pin.createdAt)])
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
            try connection.query("SELECT count(*) AS n FROM pins WHERE user_id = $1", [.integer(userID)])[0].int("n")
        }
    }

    public func pins(userID: Int64) throws -> [PinRecord] {
        try translatingErrors("listing pins") {
            try connection.query(Self.pinsOfUserSQL, [.integer(userID)]).map(StoreRows.pin)
        }
    }

    public func pin(id: Int64, userID: Int64) throws -> PinRecord? {
        try translatingErrors("looking up pin") {
            try connection.query(Self.pinByIDSQL, [.integer(id), .integer(userID)]).first.map(StoreRows.pin)
        }
    }

    public func pin(atOffset offset: Int, userID: Int64) throws -> PinRecord? {
        guard offset >= 0 else { return nil }
        return try translatingErrors("picking pin") {
            try connection.query(Self.pinsOfUserSQL + " LIMIT 1 OFFSET $2", [.integer(userID), .integer(Int64(offset))]).first.map(StoreRows.pin)
        }
    }

    public func deletePin(id: Int64, userID: Int64) throws {
        try translatingErrors("deleting pin") {
            let deleted = try connection.execute("DELETE FROM pins WHERE id = $1 AND user_id = $2", [.integer(id), .integer(userID)])
            guard deleted > 0 else { throw StoreError(.notFound, "you have no pin \(id)") }
        }
    }

    // MARK: Albums

    public func album(pinID: Int64, userID: Int64) throws -> AlbumRecord? {
        try translatingErrors("reading album") {
            try connection.transaction {
                guard let pin = try connection.query(Self.pinByIDSQL, [.integer(pinID), .integer(userID)]).first.map(StoreRows.pin) else {
                    return nil
                }
                return try albumRecord(of: pin)
            }
        }
    }

    public func albumForDownload(pinID: Int64) throws -> AlbumRecord? {
        try translatingErrors("reading album") {
            try connection.transaction {
                guard let pin = try connection.query(Self.pinSelect + " WHERE p.id = $1", [.integer(pinID)]).first.map(StoreRows.pin) else {
                    return nil
                }
                return try albumRecord(of: pin)
            }
        }
    }

    public func downloadingAlbumPins() throws -> [Int64] {
        try translatingErrors("finding unfinished albums") {
            try connection.query("SELECT pin_id FROM albums WHERE state = 0 ORDER BY pin_id").map { $0.int64("pin_id") }
        }
    }

    public func recordSearch(_ search: AlbumSearch) throws -> Bool {
        try translatingErrors("recording album search") {
            try connection.transaction {
                let state: AlbumState = search.slots.isEmpty ? .empty : .downloading
                let changed = try connection.execute("""
                    UPDATE albums SET searched = true, page = $3, pages = $4, total = $5, state = $6, error = '', updated_at = $7
                    WHERE pin_id = $1 AND generation = $2 AND state = 0 AND NOT searched
                    """, [.integer(search.pinID), .integer(search.generation), .integer(Int64(max(1, search.page))),
                          .integer(Int64(max(0, search.pages))), .integer(Int64(max(0, search.total))), .integer(Int64(state.rawValue)),
                          .integer(search.at)])
                guard changed > 0 else { return false }
                try connection.execute("DELETE FROM photos WHERE pin_id = $1", [.integer(search.pinID)])
                for (position, slot) in search.slots.enumerated() {
                    try connection.execute("""
                        INSERT INTO photos (pin_id, position, provider_photo_id, reference, title, tags, place, latitude, longitude)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                        """, [.integer(search.pinID), .integer(Int64(position)), .text(slot.id), .text(slot.reference),
                              .text(slot.title), .text(slot.tags), .text(slot.place), .double(slot.latitude), .double(slot.longitude)])
                }
                return true
            }
        }
    }

    public func failAlbum(pinID: Int64, generation: Int64, message: String, at: Int64) throws -> Bool {
        try translatingErrors("marking album failed") {
            try connection.execute("""
                UPDATE albums SET state = 3, error = $3, updated_at = $4 WHERE pin_id = $1 AND generation = $2 AND state = 0
                """, [.integer(pinID), .integer(generation), .text(message), .integer(at)]) > 0
        }
    }

    public func restartAlbum(pinID: Int64, page: Int, provider: String, perPage: Int, at: Int64) throws {
        try translatingErrors("starting a new collection") {
            try connection.transaction {
                let changed = try connection.execute("""
                    UPDATE albums SET state = 0, error = '', provider = $2, searched = false, page = $3, per_page = $4,
                                      generation = generation + 1, lease_owner = '', lease_until = 0, updated_at = $5
                    WHERE pin_id = $1
                    """, [.integer(pinID), .text(provider), .integer(Int64(max(1, page))), .integer(Int64(perPage)), .integer(at)])
                guard changed > 0 else { throw StoreError(.notFound, "no album for pin \(pinID)") }
                try connection.execute("DELETE FROM photos WHERE pin_id = $1", [.integer(pinID)])
            }
        }
    }

    public func storePhotoImage(_ image: FetchedPhoto, at: Int64) throws -> Bool {
        try translatingErrors("storing photo") {
            try connection.transaction {
                guard let pinID = try connection.query("""
                    UPDATE photos SET state = 1, width = $2, height = $3, byte_count = $4, error = '' WHERE id = $1 AND state = 0
                    RETURNING pin_id
                    """, [.integer(image.photoID), .integer(Int64(image.width)), .integer(Int64(image.height)),
                          .integer(Int64(image.image.count))]).first?.int64("pin_id") else { return false }
                try connection.execute("INSERT INTO photo_images (photo_id, sha256, bytes) VALUES ($1, $2, $3)",
                                       [.integer(image.photoID), .bytes(image.imageSHA256), .bytes(image.image)])
                try connection.execute("INSERT INTO photo_thumbnails (photo_id, sha256, bytes) VALUES ($1, $2, $3)",
                                       [.integer(image.photoID), .bytes(image.thumbnailSHA256), .bytes(image.thumbnail)])
                _ = try completeAlbumIfDone(pinID: pinID, at: at)
                return true
            }
        }
    }

    public func failPhoto(id: Int64, message: String, at: Int64) throws -> Bool {
        try translatingErrors("marking photo failed") {
            try connection.transaction {
                guard let pinID = try connection.query("UPDATE photos SET state = 2, error = $2 WHERE id = $1 AND state = 0 RETURNING pin_id",
                                                       [.integer(id), .text(message)]).first?.int64("pin_id") else { return false }
                _ = try completeAlbumIfDone(pinID: pinID, at: at)
                return true
            }
        }
    }

    public func completeAlbumIfDone(pinID: Int64, at: Int64) throws -> Bool {
        try translatingErrors("completing album") {
            try connection.transaction {
                guard try connection.query("SELECT searched FROM albums WHERE pin_id = $1 AND state = 0", [.integer(pinID)])
                    .first?.bool("searched") == true else { return false }
                let counts = try connection.query("""
                    SELECT count(*) FILTER (WHERE state = 0) AS pending, count(*) FILTER (WHERE state = 1) AS ready,
                           count(*) FILTER (WHERE state = 2) AS failed
                    FROM photos WHERE pin_id = $1
                    """, [.integer(pinID)])[0]
                guard counts.int64("pending") == 0 else { return false }
                let failed = counts.int64("failed")
                if counts.int64("ready") == 0 && failed > 0 {
                    let reason = try connection.query(
                        "SELECT error FROM photos WHERE pin_id = $1 AND state = 2 AND error <> '' ORDER BY position LIMIT 1",
                        [.integer(pinID)]).first?.string("error")
                    try connection.execute("UPDATE albums SET state = 3, error = $2, updated_at = $3 WHERE pin_id = $1",
                                           [.integer(pinID), .text(StoreRows.albumFailure(failedPhotos: failed, firstReason: reason)), .integer(at)])
                } else {
                    try connection.execute("UPDATE albums SET state = 1, updated_at = $2 WHERE pin_id = $1", [.integer(pinID), .integer(at)])
                }
                return true
            }
        }
    }

    // MARK: Photos

    public func photo(id: Int64, userID: Int64) throws -> PhotoRecord? {
        try translatingErrors("looking up photo") {
            try connection.query(Self.photoSelect + " JOIN pins p ON p.id = f.pin_id WHERE f.id = $1 AND p.user_id = $2",
                                 [.integer(id), .integer(userID)]).first.map(StoreRows.photo)
        }
    }

    public func withPhotoBytes<R>(id: Int64, userID: Int64, thumbnail: Bool,
                                  _ body: (PhotoRecord, [UInt8], any StoredBytes) throws -> R) throws -> R {
        try translatingErrors("reading photo") {
            try connection.transaction {
                guard let photo = try photo(id: id, userID: userID) else { throw StoreError(.notFound, "you have no photo \(id)") }
                try StoreRows.requireReady(photo)
                let table = thumbnail ? "photo_thumbnails" : "photo_images"
                guard let sha256 = try connection.query("SELECT sha256 FROM \(table) WHERE photo_id = $1", [.integer(id)])
                    .first?.bytes("sha256") else {
                    throw StoreError(.internalError, "ready photo \(id) has no bytes")
                }
                let connection = self.connection
                return try body(photo, sha256, PostgresBytes {
                    try connection.query("SELECT bytes FROM \(table) WHERE photo_id = $1", [.integer(id)]).first?.bytes("bytes") ?? []
                })
            }
        }
    }

    public func deletePhoto(id: Int64, userID: Int64, at: Int64) throws {
        try translatingErrors("removing photo") {
            try connection.transaction {
                guard let photo = try photo(id: id, userID: userID) else { throw StoreError(.notFound, "you have no photo \(id)") }
                try connection.execute("DELETE FROM photos WHERE id = $1", [.integer(id)])
                if photo.state == .pending { _ = try completeAlbumIfDone(pinID: photo.pinID, at: at) }
            }
        }
    }

    public func readyPhotoCount(pinID: Int64) throws -> Int {
        try translatingErrors("counting photos") {
            try connection.query("SELECT count(*) AS n FROM photos WHERE pin_id = $1 AND state = 1", [.integer(pinID)])[0].int("n")
        }
    }

    public func readyPhoto(pinID: Int64, atOffset offset: Int) throws -> PhotoRecord? {
        guard offset >= 0 else { return nil }
        return try translatingErrors("picking photo") {
            try connection.query(Self.photoSelect + " WHERE f.pin_id = $1 AND f.state = 1 ORDER BY f.position LIMIT 1 OFFSET $2",
                                 [.integer(pinID), .integer(Int64(offset))]).first.map(StoreRows.photo)
        }
    }

    // MARK: Helpers

    private func albumRecord(of pin: PinRecord) throws -> AlbumRecord? {
        let photos = try connection.query(Self.photoSelect + " WHERE f.pin_id = $1 ORDER BY f.position", [.integer(pin.id)]).map(StoreRows.photo)
        return try connection.query("""
            SELECT error, provider, searched, page, pages, per_page, total, generation FROM albums WHERE pin_id = $1
            """, [.integer(pin.id)]).first.map { StoreRows.album($0, pin: pin, photos: photos) }
    }

    static let pinSelect = """
        SELECT p.id, p.user_id, p.latitude, p.longitude, p.created_at, a.state,
               (SELECT count(*) FROM photos f WHERE f.pin_id = p.id) AS expected,
               (SELECT count(*) FROM photos f WHERE f.pin_id = p.id AND f.state <> 0) AS done
        FROM pins p JOIN albums a ON a.pin_id = p.id
        """
    static let pinsOfUserSQL = pinSelect + " WHERE p.user_id = $1 ORDER BY p.id"
    static let pinByIDSQL = pinSelect + " WHERE p.id = $1 AND p.user_id = $2"


    static let photoSelect = """
        SELECT f.id, f.pin_id, f.position, f.state, f.provider_photo_id, f.reference, f.title, f.tags, f.place,
               f.latitude, f.longitude, f.width, f.height, f.byte_count, f.error
        FROM photos f
        """

}

extension PostgresStore: SnapshareStore {}

extension PostgresStore {
    /// One statement: of instances racing for an album, the row lock lets one update it and the
    /// others then see the new lease and change nothing.
    public func claimAlbumLease(pinID: Int64, owner: String, now: Int64, until: Int64) throws -> Bool {
        try translatingErrors("leasing album download") {
            try connection.execute("""
                UPDATE albums SET lease_owner = $2, lease_until = $4
                WHERE pin_id = $1 AND state = 0 AND (lease_owner = $2 OR lease_until <= $3)
                """, [.integer(pinID), .text(owner), .integer(now), .integer(until)]) > 0
        }
    }

    public func albumsWithExpiredLeases(now: Int64) throws -> [Int64] {
        try translatingErrors("finding abandoned albums") {
            try connection.query("SELECT pin_id FROM albums WHERE state = 0 AND lease_until <= $1 ORDER BY pin_id", [.integer(now)])
                .map { $0.int64("pin_id") }
        }
    }
}
