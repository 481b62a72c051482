import SQL
import Wire

/// Albums and their photos: the download's bookkeeping, the photos' bytes. States are written
/// as the numbers they are stored as (see `SQLStore+Pins`).
extension SQLStore {
    // MARK: Albums

    package func album(pinID: Int64, userID: Int64) throws -> AlbumRecord? {
        try translatingErrors("reading album") {
            try sql.transaction {
                guard let pin = try sql.queryFirst(pinByID(pinID, userID: userID), StoreRows.pin) else { return nil }
                return try albumRecord(of: pin)
            }
        }
    }

    package func albumForDownload(pinID: Int64) throws -> AlbumRecord? {
        try translatingErrors("reading album") {
            try sql.transaction {
                guard let pin = try sql.queryFirst("\(Self.pinSelect)\nWHERE p.id = \(pinID)", StoreRows.pin) else { return nil }
                return try albumRecord(of: pin)
            }
        }
    }

    package func lockAlbum(pinID: Int64) throws {
        try translatingErrors("locking album") { try engine.lockRow(table: "albums", keyColumn: "pin_id", key: pinID) }
    }

    package func downloadingAlbumPins() throws -> [Int64] {
        try translatingErrors("finding unfinished albums") {
            try sql.query("SELECT pin_id FROM albums WHERE state = 0 ORDER BY pin_id") { $0.int64("pin_id") }
        }
    }

    package func recordSearch(_ search: AlbumSearch) throws -> Bool {
        try translatingErrors("recording album search") {
            try sql.transaction {
                let state: AlbumState = search.slots.isEmpty ? .empty : .downloading
                let changed = try sql.execute(
                    """
                    UPDATE albums SET searched = \(true), page = \(max(1, search.page)), pages = \(max(0, search.pages)),
                                      total = \(max(0, search.total)), state = \(state), error = '', updated_at = \(search.at)
                    WHERE pin_id = \(search.pinID) AND generation = \(search.generation) AND state = 0 AND NOT searched
                    """)
                guard changed > 0 else { return false }
                // Old rows cannot exist for a collection not yet searched, but a half-finished
                // earlier attempt must never leave two slots at one position.
                try sql.execute("DELETE FROM photos WHERE pin_id = \(search.pinID)")
                for (position, slot) in search.slots.enumerated() {
                    try sql.execute(
                        """
                        INSERT INTO photos (pin_id, position, provider_photo_id, reference, title, tags, place, latitude, longitude)
                        VALUES (\(search.pinID), \(position), \(slot.id), \(slot.reference), \(slot.title), \(slot.tags), \(slot.place),
                                \(slot.latitude), \(slot.longitude))
                        """)
                }
                return true
            }
        }
    }

    package func failAlbum(pinID: Int64, generation: Int64, message: String, at: Int64) throws -> Bool {
        try translatingErrors("marking album failed") {
            try sql.execute(
                """
                UPDATE albums SET state = 3, error = \(message), updated_at = \(at)
                WHERE pin_id = \(pinID) AND generation = \(generation) AND state = 0
                """) > 0
        }
    }

    package func restartAlbum(pinID: Int64, page: Int, provider: String, perPage: Int, at: Int64) throws {
        try translatingErrors("starting a new collection") {
            try sql.transaction {
                let changed = try sql.execute(
                    """
                    UPDATE albums SET state = 0, error = '', provider = \(provider), searched = \(false), page = \(max(1, page)),
                                      per_page = \(perPage), generation = generation + 1, lease_owner = '', lease_until = 0,
                                      updated_at = \(at)
                    WHERE pin_id = \(pinID)
                    """)
                guard changed > 0 else { throw StoreError(.notFound, "no album for pin \(pinID)") }
                // Their bytes and thumbnails go with them (ON DELETE CASCADE).
                try sql.execute("DELETE FROM photos WHERE pin_id = \(pinID)")
            }
        }
    }

    package func storePhotoImage(_ image: FetchedPhoto, at: Int64) throws -> Bool {
        try translatingErrors("storing photo") {
            try sql.transaction {
                // The state check makes a late result for a removed or replaced slot a no-op.
                guard
                    let pinID = try sql.queryFirst(
                        """
                        UPDATE photos SET state = 1, width = \(image.width), height = \(image.height), byte_count = \(image.image.count),
                                          error = ''
                        WHERE id = \(image.photoID) AND state = 0
                        RETURNING pin_id
                        """, { $0.int64("pin_id") })
                else { return false }
                try sql.execute(
                    "INSERT INTO photo_images (photo_id, sha256, bytes) VALUES (\(image.photoID), \(image.imageSHA256), \(image.image))")
                try sql.execute(
                    """
                    INSERT INTO photo_thumbnails (photo_id, sha256, bytes) \
                    VALUES (\(image.photoID), \(image.thumbnailSHA256), \(image.thumbnail))
                    """)
                _ = try completeAlbumIfDone(pinID: pinID, at: at)
                return true
            }
        }
    }

    package func failPhoto(id: Int64, message: String, at: Int64) throws -> Bool {
        try translatingErrors("marking photo failed") {
            try sql.transaction {
                guard
                    let pinID = try sql.queryFirst(
                        """
                        UPDATE photos SET state = 2, error = \(message) WHERE id = \(id) AND state = 0 RETURNING pin_id
                        """, { $0.int64("pin_id") })
                else { return false }
                _ = try completeAlbumIfDone(pinID: pinID, at: at)
                return true
            }
        }
    }

    package func completeAlbumIfDone(pinID: Int64, at: Int64) throws -> Bool {
        try translatingErrors("completing album") {
            try sql.transaction {
                guard
                    try sql.queryFirst("SELECT searched FROM albums WHERE pin_id = \(pinID) AND state = 0", { $0.bool("searched") }) == true
                else {
                    return false
                }
                guard
                    let counts = try sql.queryFirst(
                        """
                        SELECT count(*) FILTER (WHERE state = 0) AS pending, count(*) FILTER (WHERE state = 1) AS ready,
                               count(*) FILTER (WHERE state = 2) AS failed
                        FROM photos WHERE pin_id = \(pinID)
                        """, { (pending: $0.int64("pending"), ready: $0.int64("ready"), failed: $0.int64("failed")) }),
                    counts.pending == 0
                else { return false }
                if counts.ready == 0 && counts.failed > 0 {
                    let reason = try sql.queryFirst(
                        """
                        SELECT error FROM photos WHERE pin_id = \(pinID) AND state = 2 AND error <> '' ORDER BY position LIMIT 1
                        """
                    ) { $0.string("error") }
                    let message = StoreRows.albumFailure(failedPhotos: counts.failed, firstReason: reason)
                    try sql.execute("UPDATE albums SET state = 3, error = \(message), updated_at = \(at) WHERE pin_id = \(pinID)")
                } else {
                    try sql.execute("UPDATE albums SET state = 1, updated_at = \(at) WHERE pin_id = \(pinID)")
                }
                return true
            }
        }
    }

    // MARK: Photos

    package func photo(id: Int64, userID: Int64) throws -> PhotoRecord? {
        try translatingErrors("looking up photo") {
            try sql.queryFirst(
                "\(Self.photoSelect)\nJOIN pins p ON p.id = f.pin_id\nWHERE f.id = \(id) AND p.user_id = \(userID)", StoreRows.photo)
        }
    }

    package func withPhotoBytes<R>(
        id: Int64, userID: Int64, thumbnail: Bool,
        _ body: (PhotoRecord, [UInt8], any StoredBytes) throws -> R
    ) throws -> R {
        try translatingErrors("reading photo") {
            try sql.transaction {
                guard let photo = try photo(id: id, userID: userID) else { throw StoreError(.notFound, "you have no photo \(id)") }
                try StoreRows.requireReady(photo)
                let table = thumbnail ? "photo_thumbnails" : "photo_images"
                guard let sha256 = try sql.queryFirst("SELECT sha256 FROM \(raw: table) WHERE photo_id = \(id)", { $0.bytes("sha256") })
                else {
                    throw StoreError(.internalError, "ready photo \(id) has no bytes")
                }
                // The row holding the digest holds the bytes.
                return try sql.withStoredBytes(table: table, column: "bytes", keyColumn: "photo_id", key: id) {
                    try body(photo, sha256, $0)
                }
            }
        }
    }

    package func deletePhoto(id: Int64, userID: Int64, at: Int64) throws {
        try translatingErrors("removing photo") {
            try sql.transaction {
                guard let photo = try photo(id: id, userID: userID) else {
                    throw StoreError(.notFound, "you have no photo \(id)")
                }
                // Bytes and thumbnail go with it; the other photos keep their positions.
                try sql.execute("DELETE FROM photos WHERE id = \(id)")
                if photo.state == .pending {
                    _ = try completeAlbumIfDone(pinID: photo.pinID, at: at)
                }
            }
        }
    }

    package func readyPhotoCount(pinID: Int64) throws -> Int {
        try translatingErrors("counting photos") {
            try sql.queryFirst("SELECT count(*) AS n FROM photos WHERE pin_id = \(pinID) AND state = 1") { $0.int("n") } ?? 0
        }
    }

    package func readyPhoto(pinID: Int64, atOffset offset: Int) throws -> PhotoRecord? {
        guard offset >= 0 else { return nil }
        return try translatingErrors("picking photo") {
            try sql.queryFirst(
                """
                \(Self.photoSelect)
                WHERE f.pin_id = \(pinID) AND f.state = 1
                ORDER BY f.position
                LIMIT 1 OFFSET \(offset)
                """, StoreRows.photo)
        }
    }

    // MARK: Helpers

    private func albumRecord(of pin: PinRecord) throws -> AlbumRecord? {
        let photos = try sql.query("\(Self.photoSelect)\nWHERE f.pin_id = \(pin.id)\nORDER BY f.position", StoreRows.photo)
        return try sql.queryFirst(
            """
            SELECT error, provider, searched, page, pages, per_page, total, generation FROM albums WHERE pin_id = \(pin.id)
            """
        ) { row in
            // The state is the pin's summary's, read from the same row by `pinSelect`.
            StoreRows.album(row, pin: pin, photos: photos)
        }
    }

    /// Columns of a `PhotoRecord` (never the bytes), from `photos f`.
    static let photoSelect: SQL = """
        SELECT f.id, f.pin_id, f.position, f.state, f.provider_photo_id, f.reference, f.title, f.tags, f.place,
               f.latitude, f.longitude, f.width, f.height, f.byte_count, f.error
        FROM photos f
        """
}

extension AlbumState: SQLBindable {}
