import Foundation
import SQLite
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

/// Three users and one feed, the cast of most store tests.
struct StoreFixture {
    let store: SQLiteStore
    let alice: UserRecord
    let bob: UserRecord
    let carol: UserRecord
    let feed: FeedRecord

    init(path: String) throws {
        store = try SQLiteStore(path: path)
        alice = try store.createUser(name: "alice", passwordHash: "h", isAdmin: false, at: 1)
        bob = try store.createUser(name: "bob", passwordHash: "h", isAdmin: false, at: 2)
        carol = try store.createUser(name: "carol", passwordHash: "h", isAdmin: true, at: 3)
        feed = try #require(try store.feed(named: "Memes"))
    }

    /// Posts a snap by `poster` at `postedAt`, expiring at `expiresAt`.
    @discardableResult
    func post(by poster: UserRecord, at postedAt: Int64 = 1_000, expiresAt: Int64 = 10_000,
              image: [UInt8] = Array("not really a png".utf8), feedID: Int64? = nil) throws -> SnapListing {
        try store.insertSnap(NewSnap(feedID: feedID ?? feed.id, posterID: poster.id, image: image,
                                     sha256: [UInt8](repeating: 0xAB, count: 32), format: .png,
                                     width: 4, height: 3, postedAt: postedAt, expiresAt: expiresAt))
    }
}

/// The StoreError kind thrown by `body`, or nil if it did not throw one.
func storeErrorKind(_ body: () throws -> Void) -> StoreError.Kind? {
    do {
        try body()
        return nil
    } catch let error as StoreError {
        return error.kind
    } catch {
        return .internalError
    }
}

@Suite("SQLite store")
struct SQLiteStoreTests {
    // MARK: Schema

    @Test("a new file gets the schema and the three default feeds, once")
    func migrationCreatesSchemaAndDefaultFeeds() throws {
        try withTemporaryDatabase { path in
            do {
                let store = try SQLiteStore(path: path)
                #expect(try store.database.userVersion() == Schema.currentVersion)
                let tables = try store.database.query(
                    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                ) { $0.string(at: 0) }
                #expect(tables == ["access_epoch", "albums", "feeds", "map_states", "movies", "photo_images", "photo_thumbnails", "photos",
                                   "pins", "sessions", "snap_images", "snaps", "users", "views"])
                let feeds = try store.feedSummaries(viewerID: 0, now: 0).map(\.name)
                #expect(feeds == ["Dog Spots", "Memes", "Random"])
                try store.deleteFeed(named: "memes")
            }
            let reopened = try SQLiteStore(path: path)
            #expect(try reopened.feedSummaries(viewerID: 0, now: 0).map(\.name) == ["Dog Spots", "Random"])
        }
    }

    @Test("reopening a file keeps its data")
    func reopeningKeepsData() throws {
        try withTemporaryDatabase { path in
            let snapID: Int64
            do {
                let fixture = try StoreFixture(path: path)
                snapID = try fixture.post(by: fixture.alice).id
            }
            let store = try SQLiteStore(path: path)
            #expect(try store.user(named: "ALICE")?.name == "alice")
            #expect(try store.snapListing(id: snapID, viewerID: 0, now: 0)?.posterName == "alice")
        }
    }

    @Test("a file with a newer schema version is refused by writers and readers")
    func newerSchemaIsRefused() throws {
        try withTemporaryDatabase { path in
            do {
                let store = try SQLiteStore(path: path)
                try store.database.setUserVersion(Schema.currentVersion + 1)
            }
            for readOnly in [false, true] {
                do {
                    _ = try SQLiteStore(path: path, readOnly: readOnly)
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
            let writer = try SQLiteDatabase(path: path)  // creates an empty WAL file, version 0
            #expect(storeErrorKind { _ = try SQLiteStore(path: path, readOnly: true) } == .unavailable)
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
            #expect(storeErrorKind { _ = try SQLiteStore(path: path) } == .corrupt)
            let before = try openDescriptors()
            for _ in 0..<100 {
                _ = try? SQLiteStore(path: path)
                _ = try? SQLiteStore(path: path, readOnly: true)
            }
            // 200 failed opens; a leak would show as 200 more. Tests running alongside may hold a few.
            #expect(try openDescriptors() < before + 60)
        }
    }

    @Test("the writer connection runs in WAL with full sync, foreign keys and secure delete")
    func connectionSettings() throws {
        try withTemporaryDatabase { path in
            let database = try SQLiteDatabase(path: path)
            #expect(try database.queryFirst("PRAGMA journal_mode") { $0.string(at: 0) } == "wal")
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
            _ = try SQLiteStore(path: path)
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
            let store = try SQLiteStore(path: path)
            #expect(try store.database.scalar("PRAGMA page_size") == 4096)
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
                let store = try SQLiteStore(path: path, checkpointsInBackground: true)
                let poster = try store.createUser(name: "poster", passwordHash: "h", isAdmin: false, at: 1)
                let feed = try #require(try store.feed(named: "Memes"))
                let fileSizeBefore = try fileSize(path)
                // About 8 MB of commits, twice the WAL size that asks for a checkpoint, while the
                // checkpointer is held: the file does not grow, so the writer did not checkpoint.
                try store.database.withBackgroundCheckpointsPaused {
                    for index in 0..<80 {
                        posted.append(try store.insertSnap(NewSnap(
                            feedID: feed.id, posterID: poster.id, image: image, sha256: [UInt8](repeating: 1, count: 32),
                            format: .png, width: 4, height: 3, postedAt: Int64(index), expiresAt: 1_000_000)).id)
                    }
                    #expect(try fileSize(path) == fileSizeBefore)
                }
                // The pages reach the database file although the writer never checkpointed. The
                // deadline only turns a checkpointer that never runs into a failure, not a hang.
                let deadline = Date().addingTimeInterval(60)
                while try fileSize(path) < fileSizeBefore + 4_000_000 && Date() < deadline {
                    Thread.sleep(forTimeInterval: 0.01)
                }
                #expect(try fileSize(path) >= fileSizeBefore + 4_000_000, "nothing was copied out of the WAL")
                // compact's own TRUNCATE checkpoint waits for a running one instead of failing busy.
                try store.compact()
            }
            // Closed (checkpointer stopped first): everything is there on reopening.
            let reopened = try SQLiteStore(path: path, readOnly: true)
            for id in posted {
                let listing = try #require(try reopened.snapListing(id: id, viewerID: 0, now: 0))
                #expect(listing.byteCount == Int64(image.count))
            }
        }
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("nested transactions roll back only the level that failed")
    func nestedTransactions() throws {
        struct Planned: Error {}
        try withTemporaryDatabase { path in
            let store = try SQLiteStore(path: path)
            try store.transaction {
                _ = try store.createFeed(name: "outer", at: 1)
                #expect(throws: Planned.self) {
                    try store.transaction {
                        _ = try store.createFeed(name: "inner", at: 1)
                        throw Planned()
                    }
                }
            }
            #expect(try store.feed(named: "outer") != nil)
            #expect(try store.feed(named: "inner") == nil)
            #expect(throws: Planned.self) {
                try store.transaction {
                    _ = try store.createFeed(name: "doomed", at: 1)
                    try store.transaction { _ = try store.createFeed(name: "doomed too", at: 1) }
                    throw Planned()
                }
            }
            #expect(try store.feed(named: "doomed") == nil)
            #expect(try store.feed(named: "doomed too") == nil)
            #expect(!store.database.isInTransaction)
        }
    }

    // MARK: Accounts

    @Test("user names are unique and looked up case-insensitively")
    func userNamesAreCaseInsensitive() throws {
        try withTemporaryDatabase { path in
            let store = try SQLiteStore(path: path)
            let alice = try store.createUser(name: "Alice", passwordHash: "hash", isAdmin: false, at: 5)
            #expect(storeErrorKind { _ = try store.createUser(name: "aLiCe", passwordHash: "x", isAdmin: true, at: 6) }
                    == .conflict)
            #expect(try store.user(named: "ALICE") == alice)
            #expect(try store.user(id: alice.id) == alice)
            #expect(try store.user(named: "bob") == nil)
            try store.setAdmin(userID: alice.id, isAdmin: true)
            try store.setPasswordHash(userID: alice.id, passwordHash: "new")
            #expect(try store.user(id: alice.id)?.isAdmin == true)
            #expect(try store.user(id: alice.id)?.passwordHash == "new")
            #expect(storeErrorKind { try store.setAdmin(userID: 999, isAdmin: true) } == .notFound)
            #expect(storeErrorKind { _ = try store.createFeed(name: "MEMES", at: 1) } == .conflict)
        }
    }

    @Test("a session finds its user until it expires")
    func sessionsExpire() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            let token = [UInt8](repeating: 7, count: 32)
            try store.createSession(userID: fixture.alice.id, tokenHash: token, at: 100, expiresAt: 200)
            try store.createSession(userID: fixture.bob.id, tokenHash: [UInt8](repeating: 8, count: 32),
                                    at: 100, expiresAt: 500)
            #expect(storeErrorKind {
                try store.createSession(userID: 999, tokenHash: [1], at: 1, expiresAt: 2)
            } == .notFound)
            #expect(try store.sessionUser(tokenHash: token, now: 199)?.id == fixture.alice.id)
            #expect(try store.sessionUser(tokenHash: token, now: 200) == nil)
            #expect(try store.sessionUser(tokenHash: [1, 2, 3], now: 0) == nil)
            #expect(try store.deleteExpiredSessions(now: 300) == 1)
            #expect(try store.statistics(now: 300).first { $0.name == "sessions" }?.value == 1)
            try store.deleteSession(tokenHash: [UInt8](repeating: 8, count: 32))
            #expect(try store.sessionUser(tokenHash: [UInt8](repeating: 8, count: 32), now: 0) == nil)
        }
    }

    @Test("user summaries count posts and views")
    func userSummaries() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let snap = try fixture.post(by: fixture.alice)
            try fixture.post(by: fixture.alice)
            _ = try fixture.store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000)
            let summaries = try fixture.store.userSummaries()
            #expect(summaries.map(\.name) == ["alice", "bob", "carol"])
            #expect(summaries[0].postCount == 2 && summaries[0].viewCount == 0)
            #expect(summaries[1].postCount == 0 && summaries[1].viewCount == 1)
            #expect(summaries[2].isAdmin)
        }
    }

    // MARK: Listings

    @Test("a listing is newest first, live only, and marks sent, read and unread")
    func listingStatuses() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            let own = try fixture.post(by: fixture.bob, at: 1_000)
            let opened = try fixture.post(by: fixture.alice, at: 2_000)
            let unread = try fixture.post(by: fixture.alice, at: 3_000)
            let sameTime = try fixture.post(by: fixture.carol, at: 3_000)
            let expired = try fixture.post(by: fixture.alice, at: 500, expiresAt: 1_500)
            let random = try #require(try store.feed(named: "random"))
            let elsewhere = try fixture.post(by: fixture.alice, at: 2_500, feedID: random.id)
            _ = try store.claimView(snapID: opened.id, viewerID: fixture.bob.id, now: 2_000)

            let listing = try store.snapListings(feedID: fixture.feed.id, viewerID: fixture.bob.id, now: 2_000)
            #expect(listing.map(\.id) == [sameTime.id, unread.id, opened.id, own.id])
            #expect(listing.map(\.status) == [.unread, .unread, .read, .sent])
            #expect(listing[0].feedName == "Memes" && listing[0].posterName == "carol")
            #expect(listing[0].byteCount == 16 && listing[0].width == 4 && listing[0].height == 3)
            #expect(listing[0].format == .png)

            let all = try store.snapListings(feedID: nil, viewerID: fixture.bob.id, now: 2_000)
            #expect(all.map(\.id) == [sameTime.id, unread.id, elsewhere.id, opened.id, own.id])

            // One snap by id: expired ones too, so callers can tell EXPIRED from NOT_FOUND.
            #expect(try store.snapListing(id: expired.id, viewerID: fixture.bob.id, now: 2_000)?.id == expired.id)
            #expect(try store.snapListing(id: opened.id, viewerID: fixture.bob.id, now: 0)?.status == .read)
            #expect(try store.snapListing(id: 9_999, viewerID: fixture.bob.id, now: 0) == nil)
        }
    }

    @Test("listings and feed counts never read image bytes")
    func listingsNeverReadImages() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            for sql in [SQLiteStore.liveListingSQL, SQLiteStore.liveFeedListingSQL, SQLiteStore.listingByIDSQL,
                        SQLiteStore.feedSummariesSQL] {
                // Parameters stay unbound (NULL): the plan does not depend on their values.
                let plan = try store.database.withStatement("EXPLAIN QUERY PLAN " + sql) { statement in
                    var details: [String] = []
                    while try statement.step() { details.append(statement.string(at: 3)) }
                    return details
                }
                #expect(!plan.isEmpty)
                #expect(!plan.contains { $0.contains("snap_images") }, "\(plan)")
            }
            // And with the images gone behind the store's back, listings are unchanged.
            let snap = try fixture.post(by: fixture.alice)
            try store.database.run("DELETE FROM snap_images")
            #expect(try store.snapListings(feedID: nil, viewerID: fixture.bob.id, now: 2_000).map(\.id) == [snap.id])
            #expect(try store.feedSummaries(viewerID: fixture.bob.id, now: 2_000).first { $0.name == "Memes" }?
                .unreadCount == 1)
            // A claim without an image gives nothing and leaves no view behind.
            #expect(storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000) }
                    == .expired)
            #expect(try store.database.scalar("SELECT count(*) FROM views") == 0)
        }
    }

    @Test("feed summaries count live snaps and the viewer's unread ones")
    func feedSummaries() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            try fixture.post(by: fixture.bob)                       // bob's own: live, not unread for bob
            let seen = try fixture.post(by: fixture.alice)
            try fixture.post(by: fixture.alice)                     // unread
            try fixture.post(by: fixture.alice, expiresAt: 1_500)  // expired at 2_000
            _ = try store.claimView(snapID: seen.id, viewerID: fixture.bob.id, now: 1_000)
            let memes = try #require(try store.feedSummaries(viewerID: fixture.bob.id, now: 2_000)
                .first { $0.name == "Memes" })
            #expect(memes.id == fixture.feed.id)
            #expect(memes.snapCount == 3)
            #expect(memes.unreadCount == 1)
            let forCarol = try #require(try store.feedSummaries(viewerID: fixture.carol.id, now: 2_000)
                .first { $0.name == "Memes" })
            #expect(forCarol.unreadCount == 3)
        }
    }

    // MARK: The view-once claim

    @Test("the first open wins, a second is refused, and a restored view allows exactly one more")
    func claimViewOnce() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            let image: [UInt8] = Array(0...255)
            let snap = try fixture.post(by: fixture.alice, image: image)

            let opened = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000)
            #expect(opened.image == image)
            #expect(opened.sha256 == [UInt8](repeating: 0xAB, count: 32))
            #expect(opened.listing.status == .read && opened.listing.id == snap.id)
            #expect(storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_001) }
                    == .alreadyViewed)
            // Another viewer has their own single view.
            #expect(try store.claimView(snapID: snap.id, viewerID: fixture.carol.id, now: 2_002).image == image)

            try store.restoreView(snapID: snap.id, userID: fixture.bob.id)
            #expect(try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_003).image == image)
            #expect(storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_004) }
                    == .alreadyViewed)
            #expect(storeErrorKind { try store.restoreView(snapID: snap.id, userID: fixture.alice.id) } == .notFound)
        }
    }

    @Test("opening your own, an expired or a missing snap is refused, in that order of checks")
    func claimViewRefusals() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            let snap = try fixture.post(by: fixture.alice, expiresAt: 5_000)
            #expect(storeErrorKind { _ = try store.claimView(snapID: 424_242, viewerID: fixture.bob.id, now: 0) }
                    == .notFound)
            #expect(storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.alice.id, now: 2_000) }
                    == .ownSnap)
            #expect(storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 5_000) }
                    == .expired)
            // Own beats expired.
            #expect(storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.alice.id, now: 9_000) }
                    == .ownSnap)
            // No refusal leaves a view row.
            #expect(try store.database.scalar("SELECT count(*) FROM views") == 0)
        }
    }

    @Test("threads racing to open the same snap as the same viewer: exactly one wins", .timeLimit(.minutes(2)))
    func claimViewRace() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let racers = 8
            let stores = try (0..<racers).map { _ in RaceStore(try SQLiteStore(path: path)) }
            for round in 0..<15 {
                let snapID = try fixture.post(by: fixture.alice, at: Int64(1_000 + round)).id
                let viewerID = fixture.bob.id
                let outcomes = RaceOutcomes()
                let start = DispatchSemaphore(value: 0)
                let group = DispatchGroup()
                for racer in stores {
                    group.enter()
                    Thread {
                        start.wait()
                        do {
                            let opened = try racer.store.claimView(snapID: snapID, viewerID: viewerID, now: 2_000)
                            outcomes.record(opened.image.isEmpty ? "empty" : "won")
                        } catch let error as StoreError {
                            outcomes.record("\(error.kind)")
                        } catch {
                            outcomes.record("\(error)")
                        }
                        group.leave()
                    }.start()
                }
                for _ in 0..<racers { start.signal() }
                group.wait()
                #expect(outcomes.counts == ["won": 1, "alreadyViewed": racers - 1], "round \(round)")
            }
            #expect(try fixture.store.database.scalar("SELECT count(*) FROM views") == 15)
        }
    }

    // MARK: Purge, resets, erasure

    @Test("purging erases expired images, keeps their metadata, and later opens say expired")
    func purgeExpired() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            let old = try fixture.post(by: fixture.alice, expiresAt: 1_500, image: [UInt8](repeating: 1, count: 100))
            let fresh = try fixture.post(by: fixture.alice, expiresAt: 9_000, image: [UInt8](repeating: 2, count: 50))
            #expect(try store.purgeExpired(now: 2_000) == 1)
            #expect(try store.purgeExpired(now: 2_000) == 0)
            #expect(try store.snapListing(id: old.id, viewerID: fixture.bob.id, now: 2_000) != nil)
            #expect(try store.snapListings(feedID: nil, viewerID: fixture.bob.id, now: 0).map(\.id) == [fresh.id])
            // Even with a clock that went backwards, an erased snap cannot be opened.
            #expect(storeErrorKind { _ = try store.claimView(snapID: old.id, viewerID: fixture.bob.id, now: 0) }
                    == .expired)
            let statistics = Dictionary(uniqueKeysWithValues: try store.statistics(now: 2_000).map { ($0.name, $0.value) })
            #expect(statistics["image_bytes_stored"] == 50)
            #expect(statistics["snaps_live"] == 1 && statistics["snaps_expired"] == 1)
        }
    }

    @Test("after a feed reset and compaction, an image's bytes are gone from the database and WAL files")
    func resetAndCompactErasesBytes() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
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
            #expect(try store.database.scalar("SELECT count(*) FROM views") == 0)
        }
    }

    @Test("compaction asked for inside a transaction runs right after the COMMIT")
    func compactInsideTransaction() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            let marker = Array("INSIDE-A-TRANSACTION-\(UUID().uuidString)".utf8)
            try fixture.post(by: fixture.alice, image: marker + [UInt8](repeating: 1, count: 5_000))
            try store.transaction {
                _ = try store.resetAllFeeds()
                try store.compact()
                try store.compact()  // scheduled once
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
        }
    }

    @Test("deleting a feed removes its snaps, images and views")
    func deleteFeedCascades() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            let snap = try fixture.post(by: fixture.alice)
            let random = try #require(try store.feed(named: "Random"))
            let survivor = try fixture.post(by: fixture.alice, feedID: random.id)
            _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000)
            _ = try store.claimView(snapID: survivor.id, viewerID: fixture.bob.id, now: 2_000)
            try store.deleteFeed(named: "MEMES")
            #expect(try store.feed(named: "Memes") == nil)
            #expect(try store.database.scalar("SELECT count(*) FROM snaps") == 1)
            #expect(try store.database.scalar("SELECT count(*) FROM snap_images") == 1)
            #expect(try store.database.scalar("SELECT count(*) FROM views") == 1)
            #expect(try store.snapListing(id: snap.id, viewerID: 0, now: 0) == nil)
            #expect(storeErrorKind { try store.deleteFeed(named: "Memes") } == .notFound)
        }
    }

    @Test("deleting one snap or resetting everything removes rows and counts them")
    func deleteSnapAndResetAll() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            let first = try fixture.post(by: fixture.alice)
            _ = try store.claimView(snapID: first.id, viewerID: fixture.bob.id, now: 2_000)
            try store.deleteSnap(id: first.id)
            #expect(storeErrorKind { try store.deleteSnap(id: first.id) } == .notFound)
            #expect(storeErrorKind { _ = try store.claimView(snapID: first.id, viewerID: fixture.carol.id, now: 2_000) }
                    == .notFound)
            try fixture.post(by: fixture.alice)
            try fixture.post(by: fixture.bob, feedID: try #require(try store.feed(named: "Dog Spots")).id)
            #expect(try store.resetAllFeeds() == 2)
            #expect(try store.database.scalar("SELECT count(*) FROM snap_images") == 0)
            // Ids are never reused, so an old id cannot name a new snap.
            #expect(try fixture.post(by: fixture.alice).id > first.id + 2)
        }
    }

    @Test("posting into a missing feed is notFound, and an empty image round-trips")
    func insertSnapEdges() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            #expect(storeErrorKind { try fixture.post(by: fixture.alice, feedID: 777) } == .notFound)
            let empty = try fixture.post(by: fixture.alice, image: [])
            #expect(empty.byteCount == 0)
            #expect(try fixture.store.claimView(snapID: empty.id, viewerID: fixture.bob.id, now: 2_000).image == [])
        }
    }

    @Test("statistics name every counter")
    func statistics() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            try fixture.post(by: fixture.alice, image: [1, 2, 3])
            let statistics = try fixture.store.statistics(now: 2_000)
            #expect(statistics.map(\.name) == ["users", "admins", "feeds", "snaps_live", "snaps_expired", "views",
                                               "image_bytes_stored", "database_bytes", "sessions"])
            let values = Dictionary(uniqueKeysWithValues: statistics.map { ($0.name, $0.value) })
            #expect(values["users"] == 3 && values["admins"] == 1 && values["feeds"] == 3)
            #expect(values["image_bytes_stored"] == 3)
            #expect((values["database_bytes"] ?? 0) > 0)
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

/// A store handed to exactly one racing thread.
private final class RaceStore: @unchecked Sendable {
    let store: SQLiteStore
    init(_ store: SQLiteStore) { self.store = store }
}

/// Outcome tallies from racing threads.
private final class RaceOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var tally: [String: Int] = [:]
    func record(_ outcome: String) { lock.withLock { tally[outcome, default: 0] += 1 } }
    var counts: [String: Int] { lock.withLock { tally } }
}
