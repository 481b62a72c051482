import Crypto
import Foundation
import SQL
import SQLite

#if canImport(Glibc)
    import Glibc
#endif

/// One Virtual Vacation: a SQLite file holding the photos visited into it, their places and
/// tags, and their images, so it can be browsed with the server unreachable.
///
/// Every change is one `BEGIN IMMEDIATE` transaction, and the connection waits for another
/// process's lock (busy timeout) instead of failing, so two `snapshare` processes working on
/// one vacation at once serialize their changes and lose none.
final class VacationStore {
    /// The vacation's name (its file name without `.vacation`).
    let name: String
    /// The file.
    let path: String
    private let database: SQLiteDatabase
    /// How long a statement waits for another snapshare process's lock before giving up.
    static let busyTimeoutMilliseconds: Int32 = 20_000

    /// Opens the existing file at `path`, turning an empty file into an empty vacation.
    /// Refuses (`damaged`) a file that is not a vacation, is damaged, or is from a newer client.
    init(name: String, path: String) throws(VacationError) {
        self.name = name
        self.path = path
        database = try Self.translating(path) { try Self.open(path) }
        try Self.translating(path) {
            try database.transaction {
                if try Self.identify(database, path: path) == .empty {
                    try database.exec(VacationSchema.version1)
                    try database.setApplicationID(VacationSchema.applicationID)
                    try database.setUserVersion(VacationSchema.version)
                }
            }
            try useWriteAheadLog()
        }
    }

    /// The counts of the vacation file at `path`, read without changing the file in any way
    /// (a foreign file in the folder is only looked at).
    static func summary(name: String, path: String) throws(VacationError) -> VacationSummary {
        try translating(path) {
            let database = try open(path)
            return try database.readTransaction {
                guard try identify(database, path: path) == .vacation else {
                    return VacationSummary(name: name, photos: 0, places: 0, tags: 0, exists: true)
                }
                return VacationSummary(
                    name: name, photos: Int(try database.scalar("SELECT count(*) FROM photos")),
                    places: Int(try database.scalar("SELECT count(*) FROM places")),
                    tags: Int(try database.scalar("SELECT count(*) FROM tags")), exists: true)
            }
        }
    }

    /// An existing file, opened without touching its header: it may not be a vacation at all.
    private static func open(_ path: String) throws -> SQLiteDatabase {
        try SQLiteDatabase(path: path, create: false, configuresJournal: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    /// This vacation's counts.
    func summary() throws(VacationError) -> VacationSummary { try Self.summary(name: name, path: path) }

    // MARK: Visiting

    /// What `visit` did.
    enum VisitOutcome: Equatable {
        /// The photo is in the vacation now; `newPlace` when its place joined the itinerary.
        case added(newPlace: Bool)
        /// It was already there; nothing changed.
        case alreadyVisited
    }

    /// Whether the photo `photoID` of server `origin` is in the vacation.
    func contains(origin: String, photoID: UInt64) throws(VacationError) -> Bool {
        try translating {
            try database.scalar("SELECT count(*) FROM photos WHERE origin = \(origin) AND photo_id = \(Int64(bitPattern: photoID))") > 0
        }
    }

    /// Copies `photo` into the vacation in one transaction: its place (new places get a
    /// first-visited time of `now`), its tags and its images. Visiting twice changes nothing.
    func visit(_ photo: VisitedPhoto, now: Int64) throws(VacationError) -> VisitOutcome {
        try translating {
            try database.transaction { () throws -> VisitOutcome in
                if try contains(origin: photo.origin, photoID: photo.photoID) { return .alreadyVisited }
                let placeName = Self.placeName(photo.place)
                var newPlace = false
                let placeID: Int64
                if let existing = try database.queryFirst("SELECT id FROM places WHERE name = \(placeName)", { $0.int64("id") }) {
                    placeID = existing
                } else {
                    // Strictly later than every place already here: the itinerary's order is the
                    // order of first visits even if the clock stepped back or two visits shared
                    // a millisecond.
                    placeID =
                        try database.queryFirst(
                            """
                            INSERT INTO places (name, first_visited)
                            VALUES (\(placeName), max(\(now), coalesce((SELECT max(first_visited) + 1 FROM places), \(now))))
                            RETURNING id
                            """
                        ) { $0.int64("id") } ?? 0
                    newPlace = true
                }
                let rowID =
                    try database.queryFirst(
                        """
                        INSERT INTO photos (origin, photo_id, title, place_id, latitude, longitude, width, height, visited_at)
                        VALUES (\(photo.origin), \(Int64(bitPattern: photo.photoID)), \(photo.title), \(placeID), \(photo.latitude),
                                \(photo.longitude), \(photo.width), \(photo.height), \(now))
                        RETURNING id
                        """
                    ) { $0.int64("id") } ?? 0
                try database.execute(
                    """
                    INSERT INTO photo_images (photo_id, image, image_sha256, thumbnail, thumbnail_sha256)
                    VALUES (\(rowID), \(photo.image), \(SHA256.hash(photo.image)), \(photo.thumbnail), \(SHA256.hash(photo.thumbnail)))
                    """)
                for tag in VacationTag.parse(photo.tags) {
                    try database.execute("INSERT INTO tags (name) VALUES (\(tag)) ON CONFLICT (name) DO NOTHING")
                    try database.execute("INSERT INTO photo_tags (photo_id, tag_id) SELECT \(rowID), id FROM tags WHERE name = \(tag)")
                }
                return .added(newPlace: newPlace)
            }
        }
    }

    /// Removes a photo in one transaction; tags and places left without photos go with it.
    /// `preferredOrigin` picks among photos of the same id from different servers.
    @discardableResult
    func unvisit(photoID: UInt64, preferredOrigin: String?) throws(VacationError) -> VacationPhoto {
        try translating {
            try database.transaction { () throws -> VacationPhoto in
                let (rowID, photo) = try resolve(photoID: photoID, preferredOrigin: preferredOrigin)
                try database.execute("DELETE FROM photos WHERE id = \(rowID)")
                try database.execute("DELETE FROM tags WHERE NOT EXISTS (SELECT 1 FROM photo_tags WHERE tag_id = tags.id)")
                try database.execute("DELETE FROM places WHERE NOT EXISTS (SELECT 1 FROM photos WHERE place_id = places.id)")
                return photo
            }
        }
    }

    // MARK: Browsing

    /// The places, first visited first (ties by name), with their photo counts.
    func itinerary() throws(VacationError) -> [VacationPlace] {
        try translating {
            try database.query(
                """
                SELECT pl.name, pl.first_visited, count(ph.id) AS photos FROM places pl JOIN photos ph ON ph.place_id = pl.id
                GROUP BY pl.id ORDER BY pl.first_visited, pl.name
                """
            ) { VacationPlace(name: $0.string("name"), firstVisited: $0.int64("first_visited"), photoCount: $0.int("photos")) }
        }
    }

    /// The photos of one place (its exact name, else the one place matching it ignoring case),
    /// sorted by title ignoring case.
    func photos(atPlace requested: String) throws(VacationError) -> (place: VacationPlace, photos: [VacationPhoto]) {
        let places = try itinerary()
        let wanted = requested.trimmedWhitespace
        guard
            let place = places.first(where: { $0.name == wanted })
                ?? places.first(where: { $0.name.lowercased() == wanted.lowercased() })
        else {
            throw VacationError(
                .notFound, "no place \"\(PrintableText.clean(wanted))\" in vacation \(name)", remedy: .showItinerary(vacation: name))
        }
        let photos = try translating {
            try database.query("\(Self.photoColumns) WHERE pl.name = \(place.name)", Self.photo)
        }
        return (place, photos.sorted(by: VacationPhoto.listingOrder))
    }

    /// Every tag, most often seen first (ties by name); `search` keeps the tags containing it,
    /// ignoring case.
    func tags(search: String? = nil) throws(VacationError) -> [VacationTag] {
        let all = try translating {
            try database.query(
                """
                SELECT t.name, count(*) AS photos FROM tags t JOIN photo_tags pt ON pt.tag_id = t.id
                GROUP BY t.id ORDER BY count(*) DESC, t.name
                """
            ) { VacationTag(name: $0.string("name"), count: $0.int("photos")) }
        }
        guard let search = search?.lowercased(), !search.isEmpty else { return all }
        return all.filter { $0.name.contains(search) }
    }

    /// The photos carrying `tag` (any case), sorted by title ignoring case.
    func photos(taggedWith requested: String) throws(VacationError) -> (tag: VacationTag, photos: [VacationPhoto]) {
        let wanted = requested.trimmedWhitespace.lowercased()
        guard let tag = try tags().first(where: { $0.name == wanted }) else {
            let why = wanted.contains(":") ? " (tags with a colon are machine tags and are left out)" : ""
            throw VacationError(
                .notFound, "no tag \"\(PrintableText.clean(requested))\" in vacation \(name)\(why)", remedy: .showTags(vacation: name))
        }
        let photos = try translating {
            try database.query(
                """
                \(Self.photoColumns)
                WHERE EXISTS (SELECT 1 FROM photo_tags pt JOIN tags t ON t.id = pt.tag_id \
                WHERE pt.photo_id = ph.id AND t.name = \(tag.name))
                """, Self.photo)
        }
        return (tag, photos.sorted(by: VacationPhoto.listingOrder))
    }

    /// Every photo, sorted by title ignoring case.
    func allPhotos() throws(VacationError) -> [VacationPhoto] {
        try translating { try database.query(Self.photoColumns, Self.photo) }.sorted(by: VacationPhoto.listingOrder)
    }

    /// A photo with its image (or thumbnail), checked against the SHA-256 taken when it was visited.
    func image(photoID: UInt64, preferredOrigin: String?, thumbnail: Bool = false) throws(VacationError) -> (
        photo: VacationPhoto, image: [UInt8]
    ) {
        let (photo, bytes, digest) = try translating {
            try database.readTransaction { () throws -> (VacationPhoto, [UInt8], [UInt8]) in
                let (rowID, photo) = try resolve(photoID: photoID, preferredOrigin: preferredOrigin)
                let columns = thumbnail ? "thumbnail AS bytes, thumbnail_sha256 AS sha256" : "image AS bytes, image_sha256 AS sha256"
                guard
                    let stored = try database.queryFirst(
                        "SELECT \(raw: columns) FROM photo_images WHERE photo_id = \(rowID)",
                        { ($0.bytes("bytes"), $0.bytes("sha256")) })
                else {
                    throw VacationError(.damaged, "\(path): the image of photo \(photoID) is missing")
                }
                return (photo, stored.0, stored.1)
            }
        }
        guard SHA256.hash(bytes) == digest else {
            throw VacationError(.damaged, "\(path): the image of photo \(photoID) is damaged (SHA-256 mismatch)")
        }
        return (photo, bytes)
    }

    // MARK: Pieces

    /// The file's place name for a photo's: trimmed, `Unknown place` when empty.
    static func placeName(_ raw: String) -> String {
        let name = raw.trimmedWhitespace
        return name.isEmpty ? VacationPlace.unknown : name
    }

    /// The row of photo `photoID`: the only one with that id, else the one from `preferredOrigin`.
    private func resolve(photoID: UInt64, preferredOrigin: String?) throws -> (Int64, VacationPhoto) {
        let rows = try database.query("\(Self.photoColumns) WHERE ph.photo_id = \(Int64(bitPattern: photoID))") {
            ($0.int64("row_id"), Self.photo($0))
        }
        if rows.count == 1 { return rows[0] }
        guard !rows.isEmpty else { throw VacationError(.notFound, "photo \(photoID) is not in vacation \(name)") }
        if let match = rows.first(where: { $0.1.origin == preferredOrigin }) { return match }
        let origins = rows.map(\.1.origin).joined(separator: ", ")
        throw VacationError(
            .notFound, "photo \(photoID) of vacation \(name) was visited from several servers (\(origins))",
            remedy: .chooseServer)
    }

    private static let photoColumns: SQL = """
        SELECT ph.origin, ph.photo_id, ph.title, pl.name AS place, ph.latitude, ph.longitude, ph.width, ph.height, ph.visited_at,
               (SELECT group_concat(t.name, ' ') FROM photo_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.photo_id = ph.id) AS tags,
               ph.id AS row_id
        FROM photos ph JOIN places pl ON pl.id = ph.place_id
        """

    private static func photo(_ row: any SQLRow) -> VacationPhoto {
        VacationPhoto(
            origin: row.string("origin"), photoID: UInt64(bitPattern: row.int64("photo_id")), title: row.string("title"),
            place: row.string("place"), tags: row.string("tags").split(separator: " ").map(String.init).sorted(),
            latitude: row.double("latitude"), longitude: row.double("longitude"), width: row.int("width"),
            height: row.int("height"), visitedAt: row.int64("visited_at"))
    }

    /// What is in a file, as far as opening it goes.
    private enum FileKind { case empty, vacation }

    /// Tells a vacation from an empty file and refuses everything else.
    private static func identify(_ database: SQLiteDatabase, path: String) throws -> FileKind {
        let application = try database.applicationID()
        let version = try database.userVersion()
        let objects = try database.scalar("SELECT count(*) FROM sqlite_schema")
        if application == 0 && version == 0 && objects == 0 {
            return .empty
        }
        guard application == VacationSchema.applicationID else {
            throw VacationError(.damaged, "\(path) is not a Snapshare vacation (a database of another program); left alone")
        }
        guard version <= VacationSchema.version else {
            throw VacationError(
                .damaged, "\(path) was written by a newer snapshare (vacation format \(version)); update snapshare to open it")
        }
        guard version == VacationSchema.version else {
            throw VacationError(.damaged, "\(path) has vacation format \(version), which this snapshare cannot read")
        }
        return .vacation
    }

    /// WAL lets one process read while another writes. Switching needs a moment alone with the
    /// file, which SQLite reports as busy without waiting when another process has it open, so
    /// this retries for up to the busy timeout.
    private func useWriteAheadLog() throws {
        let current = try database.queryFirst("PRAGMA journal_mode") { $0.string("journal_mode") } ?? ""
        if current.lowercased() == "wal" {
            try database.exec("PRAGMA synchronous = FULL")
            return
        }
        var waited: Int32 = 0
        while true {
            do {
                try database.useWriteAheadLog()
                return
            } catch let failure as SQLiteError {
                guard failure.isBusy || failure.isGenericError, waited < Self.busyTimeoutMilliseconds else { throw failure }
            }
            Thread.sleep(forTimeInterval: 0.02)
            waited += 20
        }
    }

    private func translating<T>(_ body: () throws -> T) throws(VacationError) -> T {
        try Self.translating(path, body)
    }

    /// Runs `body`, turning SQLite failures into `VacationError`s that name the file.
    static func translating<T>(_ path: String, _ body: () throws -> T) throws(VacationError) -> T {
        do {
            return try body()
        } catch let error as VacationError {
            throw error
        } catch let error as SQLiteError {
            if error.isCorruption {
                throw VacationError(.damaged, "\(path) is damaged or is not a database (\(error.message))")
            }
            if error.isBusy {
                throw VacationError(.unavailable, "\(path) stayed locked by another snapshare for too long; try again")
            }
            throw VacationError(.unavailable, "\(path): \(error.message)")
        } catch {
            throw VacationError(.unavailable, "\(path): \(error)")
        }
    }
}

extension String {
    /// The string without white space at either end.
    var trimmedWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
