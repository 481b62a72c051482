import Foundation
import SQL
import SQLite
import TestSupport
import Testing

@testable import Server

/// Runs `body` with the path of a database file in a fresh temporary directory, removed afterwards.
func withTemporaryDatabase<T>(_ body: (String) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("snapshare-storage-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory.appendingPathComponent("snapshare.db").path)
}

/// What only the SQLite engine does: its file, schema versions, connection settings, WAL and
/// checkpoints, query plans and erasure on disk. What every engine does is in `StoreContract/`.
@Suite("SQLite store")
struct SQLiteStoreTests {
    // MARK: Schema

    @Test("a new file gets the schema and the three default feeds, once")
    func migrationCreatesSchemaAndDefaultFeeds() throws {
        try withTemporaryDatabase { path in
            do {
                let store = try SQLStore.sqlite(path: path)
                #expect(try store.sqliteDatabase!.userVersion() == Schema.currentVersion)
                let tables = try store.sqliteDatabase!.query(
                    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                ) { $0.string("name") }
                // Every table a step creates and no later step drops or renames, read from the steps.
                var created: [String] = []
                for step in Schema.migrations {
                    for match in step.sql.matches(of: /(CREATE|DROP) TABLE (\w+)|ALTER TABLE (\w+) RENAME TO (\w+)/) {
                        if match.1 == "CREATE", let name = match.2 { created.append(String(name)) }
                        if match.1 == "DROP", let name = match.2 { created.removeAll { $0 == name } }
                        if let old = match.3, let new = match.4 { created = created.map { $0 == old ? String(new) : $0 } }
                    }
                }
                #expect(tables == created.sorted() && tables.contains("users") && tables.contains("snaps"))
                let feeds = try store.feedSummaries(viewerID: 0, now: 0).map(\.name)
                #expect(feeds == ["Dog Spots", "Memes", "Random"])
                try store.deleteFeed(named: "memes")
            }
            let reopened = try SQLStore.sqlite(path: path)
            #expect(try reopened.feedSummaries(viewerID: 0, now: 0).map(\.name) == ["Dog Spots", "Random"])
        }
    }

    @Test("reopening a file keeps its data")
    func reopeningKeepsData() throws {
        try withTemporaryDatabase { path in
            let snapID: Int64
            do {
                let fixture = try StoreFixture(store: try SQLStore.sqlite(path: path))
                snapID = try fixture.post(by: fixture.alice).id
            }
            let store = try SQLStore.sqlite(path: path)
            #expect(try store.user(named: "ALICE")?.name == "alice")
            #expect(try store.snapListing(id: snapID, viewerID: 0, now: 0)?.posterName == "alice")
        }
    }

    @Test("a file with a newer schema version is refused by writers and readers")
    func newerSchemaIsRefused() throws {
        try withTemporaryDatabase { path in
            do {
                let store = try SQLStore.sqlite(path: path)
                try store.sqliteDatabase!.setUserVersion(Schema.currentVersion + 1)
            }
            for readOnly in [false, true] {
                do {
                    _ = try SQLStore.sqlite(path: path, readOnly: readOnly)
                    Issue.record("opened a newer schema (readOnly: \(readOnly))")
                } catch let error as StoreError {
                    #expect(error.kind == .unavailable)
                    #expect(error.message.contains("newer"))
                }
            }
            let raw = try SQLiteDatabase(path: path, readOnly: true)
            #expect(try raw.userVersion() == Schema.currentVersion + 1)
        }
    }

    @Test("a read-only store never migrates an unmigrated file")
    func readOnlyStoreDoesNotMigrate() throws {
        try withTemporaryDatabase { path in
            let writer = try SQLiteDatabase(path: path) // creates an empty WAL file, version 0
            #expect(storeErrorKind { _ = try SQLStore.sqlite(path: path, readOnly: true) } == .unavailable)
            #expect(try writer.userVersion() == 0)
            #expect(try writer.scalar("SELECT count(*) FROM sqlite_schema") == 0)
        }
    }

    @Test("a file that is not a database is refused as corrupt, and the failed opens leak nothing")
    func notADatabase() throws {
        try withTemporaryDatabase { path in
            try Data(repeating: 0x42, count: 8_192).write(to: URL(fileURLWithPath: path))
            func openDescriptors() throws -> Int {
                try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
            }
            #expect(storeErrorKind { _ = try SQLStore.sqlite(path: path) } == .corrupt)
            let before = try openDescriptors()
            for _ in 0..<100 {
                _ = try? SQLStore.sqlite(path: path)
                _ = try? SQLStore.sqlite(path: path, readOnly: true)
            }
            // 200 failed opens; a leak would show as 200 more. Tests running alongside may hold a few.
            #expect(try openDescriptors() < before + 60)
        }
    }

    @Test("the writer connection runs in WAL with full sync, foreign keys and secure delete")
    func connectionSettings() throws {
        try withTemporaryDatabase { path in
            let database = try SQLiteDatabase(path: path)
            #expect(try database.queryFirst("PRAGMA journal_mode") { $0.string("journal_mode") } == "wal")
            #expect(try database.scalar("PRAGMA synchronous") == 2)
            #expect(try database.scalar("PRAGMA foreign_keys") == 1)
            #expect(try database.scalar("PRAGMA secure_delete") == 1)
            let reader = try SQLiteDatabase(path: path, readOnly: true)
            #expect(throws: SQLiteError.self) { try reader.exec("CREATE TABLE t (x)") }
        }
    }

    @Test("a new file gets 16 KiB pages; a file made with another page size keeps it and still opens")
    func pageSize() throws {
        try withTemporaryDatabase { path in
            _ = try SQLStore.sqlite(path: path)
            let reopened = try SQLiteDatabase(path: path, readOnly: true)
            #expect(try reopened.scalar("PRAGMA page_size") == Int64(SQLiteDatabase.newFilePageSize))
        }
        try withTemporaryDatabase { path in
            do {
                // A file made before this rule: 4 KiB pages, and a table already there.
                let old = try SQLiteDatabase(path: path, newFilePageSize: 4096)
                try old.exec("CREATE TABLE before_us (x INTEGER) STRICT")
                #expect(try old.scalar("PRAGMA page_size") == 4096)
            }
            let store = try SQLStore.sqlite(path: path)
            #expect(try store.sqliteDatabase!.scalar("PRAGMA page_size") == 4096)
            _ = try store.createFeed(name: "still works", at: 1)
            #expect(try store.feed(named: "still works") != nil)
        }
    }

    @Test("a writer with background checkpoints never checkpoints itself; its checkpointer copies the WAL into the file")
    func backgroundCheckpoints() throws {
        try withTemporaryDatabase { path in
            let image = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            var posted: [Int64] = []
            do {
                let store = try SQLStore.sqlite(path: path, checkpointsInBackground: true)
                let poster = try store.createUser(name: "poster", passwordHash: "h", isAdmin: false, at: 1)
                let feed = try #require(try store.feed(named: "Memes"))
                let fileSizeBefore = try fileSize(path)
                // About 8 MB of commits, twice the WAL size that asks for a checkpoint, while the
                // checkpointer is held: the file does not grow, so the writer did not checkpoint.
                try store.sqliteDatabase!.withBackgroundCheckpointsPaused {
                    for index in 0..<80 {
                        posted.append(
                            try store.insertSnap(
                                NewSnap(
                                    feedID: feed.id, posterID: poster.id, image: image, sha256: [UInt8](repeating: 1, count: 32),
                                    format: .png, width: 4, height: 3, postedAt: Int64(index), expiresAt: 1_000_000)
                            ).id)
                    }
                    #expect(try fileSize(path) == fileSizeBefore)
                }
                // The pages reach the database file although the writer never checkpointed. The
                // checkpointer's thread says nothing when it has: the file's size is watched. The
                // deadline only turns a checkpointer that never runs into a failure, not a hang.
                try? eventually("the checkpointer to copy the WAL into the file", timeout: 60, every: 0.01) {
                    try fileSize(path) >= fileSizeBefore + 4_000_000
                }
                #expect(try fileSize(path) >= fileSizeBefore + 4_000_000, "nothing was copied out of the WAL")
                // compact's own TRUNCATE checkpoint waits for a running one instead of failing busy.
                try store.compact()
            }
            // Closed (checkpointer stopped first): everything is there on reopening.
            let reopened = try SQLStore.sqlite(path: path, readOnly: true)
            for id in posted {
                let listing = try #require(try reopened.snapListing(id: id, viewerID: 0, now: 0))
                #expect(listing.byteCount == Int64(image.count))
            }
        }
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }

    // MARK: Queries and erasure

    @Test("listings and feed counts never read image bytes")
    func listingsNeverReadImages() throws {
        try withTemporaryDatabase { path in
            let store = try SQLStore.sqlite(path: path)
            let fixture = try StoreFixture(store: store)
            for sql in [
                store.liveListing(classID: 1, feedID: nil, viewerID: 1, now: 0),
                store.liveListing(classID: 1, feedID: 1, viewerID: 1, now: 0),
                store.listingByID(1, classID: 1, viewerID: 1), store.feedSummaries(classID: 1, viewerID: 1, now: 0),
            ] {
                let plan = try queryPlan(sql, in: store)
                #expect(!plan.isEmpty)
                #expect(!plan.contains { $0.contains("snap_images") }, "\(plan)")
            }
            // And with the images gone behind the store's back, listings are unchanged.
            let snap = try fixture.post(by: fixture.alice)
            try store.sqliteDatabase!.execute("DELETE FROM snap_images")
            #expect(try store.snapListings(feedID: nil, viewerID: fixture.bob.id, now: 2_000).map(\.id) == [snap.id])
            #expect(
                try store.feedSummaries(viewerID: fixture.bob.id, now: 2_000).first { $0.name == "Memes" }?
                    .unreadCount == 1)
            // A claim without an image gives nothing and leaves no view behind.
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000) }
                    == .expired)
            #expect(try store.sqliteDatabase!.scalar("SELECT count(*) FROM views") == 0)
        }
    }

    @Test("the purge finds expired snaps through the index of snaps awaiting it")
    func purgeUsesItsIndex() throws {
        try withTemporaryDatabase { path in
            let store = try SQLStore.sqlite(path: path)
            let plan = try queryPlan(store.expiredUnerasedSnaps(now: 0), in: store)
            #expect(plan.contains { $0.contains("snaps_awaiting_purge") }, "\(plan)")
        }
    }

    /// SQLite's plan for `sql`, one detail per step. Parameters stay unbound (NULL): the plan
    /// does not depend on their values.
    private func queryPlan(_ sql: SQL, in store: SQLStore) throws -> [String] {
        try store.sqliteDatabase!.withStatement("EXPLAIN QUERY PLAN " + sql.rendered { "?\($0)" }.text) { statement in
            var details: [String] = []
            while try statement.step() { details.append(statement.string(at: 3)) }
            return details
        }
    }

    @Test("after a feed reset and compaction, an image's bytes are gone from the database and WAL files")
    func resetAndCompactErasesBytes() throws {
        try withTemporaryDatabase { path in
            let store = try SQLStore.sqlite(path: path)
            let fixture = try StoreFixture(store: store)
            let marker = Array("SNAPSHARE-ERASURE-MARKER-\(UUID().uuidString)".utf8)
            var image: [UInt8] = []
            while image.count < 200_000 { image += marker + [UInt8](repeating: 0x5A, count: 97) }
            let snap = try fixture.post(by: fixture.alice, image: image)
            try fixture.post(by: fixture.bob, image: image, feedID: try #require(try store.feed(named: "Random")).id)
            _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000)
            try store.compact()
            #expect(try databaseFilesContain(marker, path: path), "the marker should be on disk before the reset")

            #expect(try store.resetFeed(id: fixture.feed.id) == 1)
            #expect(try store.resetFeed(id: try #require(try store.feed(named: "Random")).id) == 1)
            try store.compact()
            #expect(try !databaseFilesContain(marker, path: path))
            #expect(try store.sqliteDatabase!.scalar("SELECT count(*) FROM views") == 0)
        }
    }

    @Test("compaction asked for inside a transaction runs right after the COMMIT")
    func compactInsideTransaction() throws {
        try withTemporaryDatabase { path in
            let store = try SQLStore.sqlite(path: path)
            let fixture = try StoreFixture(store: store)
            let marker = Array("INSIDE-A-TRANSACTION-\(UUID().uuidString)".utf8)
            try fixture.post(by: fixture.alice, image: marker + [UInt8](repeating: 1, count: 5_000))
            try store.transaction {
                _ = try store.resetAllFeeds()
                try store.compact()
                try store.compact() // scheduled once
            }
            #expect(try !databaseFilesContain(marker, path: path))
        }
    }

    @Test("after-commit work runs once after COMMIT and is dropped with a rolled-back savepoint")
    func afterCommitActions() throws {
        struct Planned: Error {}
        try withTemporaryDatabase { path in
            let database = try SQLiteDatabase(path: path)
            var log: [String] = []
            try database.transaction {
                database.afterCommit { log.append("outer") }
                try? database.transaction {
                    database.afterCommit { log.append("rolled back") }
                    throw Planned()
                }
                try database.transaction {
                    database.afterCommit(key: "k") { log.append("keyed") }
                    database.afterCommit(key: "k") { log.append("keyed twice") }
                }
                #expect(log.isEmpty)
            }
            #expect(log == ["outer", "keyed"])
            #expect(throws: Planned.self) {
                try database.transaction {
                    database.afterCommit { log.append("never") }
                    throw Planned()
                }
            }
            database.afterCommit { log.append("now") }
            #expect(log == ["outer", "keyed", "now"])
            #expect(!database.isInTransaction)
        }
    }

    // MARK: Schema checks and cascades

    @Test("the movies table is STRICT, and its checks refuse negative sales and text")
    func moviesTableRefusesBadRows() throws {
        try withTemporaryDatabase { path in
            let store = try SQLStore.sqlite(path: path)
            let fixture = try StoreFixture(store: store)
            let database = store.sqliteDatabase!
            let sql = try #require(try database.queryFirst("SELECT sql FROM sqlite_schema WHERE name = 'movies'") { $0.string("sql") })
            #expect(sql.contains("STRICT"))
            func insert(userID: Int64, sales: some SQLBindable) throws {
                try database.execute(
                    """
                    INSERT INTO movies (user_id, title, title_key, genre, sales, created_at, updated_at) \
                    VALUES (\(userID), 'T', 't', 'G', \(sales), 0, 0)
                    """)
            }
            #expect(throws: SQLiteError.self) { try insert(userID: fixture.alice.id, sales: -1) }
            #expect(throws: SQLiteError.self) { try insert(userID: fixture.alice.id, sales: "twelve") }
            #expect(throws: SQLiteError.self) { try insert(userID: 999, sales: 1) }
            #expect(try store.movieCount(userID: fixture.alice.id) == 0)
        }
    }

    @Test("a user's movies go with the user")
    func moviesCascadeWithTheirUser() throws {
        try withTemporaryDatabase { path in
            let store = try SQLStore.sqlite(path: path)
            let fixture = try StoreFixture(store: store)
            _ = try store.addMovie(MovieRecord(title: "Up", genre: "Animation", sales: 1), userID: fixture.bob.id, at: 1)
            try store.sqliteDatabase!.execute("DELETE FROM users WHERE id = \(fixture.bob.id)")
            #expect(try store.sqliteDatabase!.scalar("SELECT count(*) FROM movies") == 0)
        }
    }

    @Test("an album whose last pending photo vanished behind the store's back is completed when asked")
    func completingAnAlbumLeftDownloading() throws {
        try withTemporaryDatabase { path in
            let store = try SQLStore.sqlite(path: path)
            let fixture = try StoreFixture(store: store)
            let (pin, photos) = try fixture.pinWithPendingPhotos(2)
            #expect(try store.storePhotoImage(fixture.fetched(photos[0]), at: 30))
            // The store never leaves an album like this itself, but the album worker asks to settle
            // every album it finishes, and must get the album completed whatever state it finds.
            try store.sqliteDatabase!.execute("DELETE FROM photos WHERE id = \(photos[1].id)")
            #expect(try store.albumForDownload(pinID: pin.id)?.state == .downloading)
            #expect(try store.completeAlbumIfDone(pinID: pin.id, at: 40))
            #expect(try store.albumForDownload(pinID: pin.id)?.state == .ready)
            #expect(try !store.completeAlbumIfDone(pinID: pin.id, at: 41))
        }
    }
}

/// True if `needle` occurs in the database file or its WAL.
func databaseFilesContain(_ needle: [UInt8], path: String) throws -> Bool {
    for file in [path, path + "-wal"] where FileManager.default.fileExists(atPath: file) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        if bytes.count >= needle.count {
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
            }
        }
    }
    return false
}
