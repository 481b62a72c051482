import Testing

@testable import Server

/// What every engine's `MaintenanceStore` does.
@Suite("Maintenance store contract")
struct MaintenanceStoreContract {
    @Test("purging erases expired images, keeps their metadata, and later opens say expired", arguments: StoreEngine.all)
    func purgeExpired(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let old = try fixture.post(by: fixture.alice, expiresAt: 1_500, image: [UInt8](repeating: 1, count: 100))
            let fresh = try fixture.post(by: fixture.alice, expiresAt: 9_000, image: [UInt8](repeating: 2, count: 50))
            #expect(try store.purgeExpired(now: 2_000) == 1)
            #expect(try store.purgeExpired(now: 2_000) == 0)
            #expect(try store.snapListing(id: old.id, viewerID: fixture.bob.id, now: 2_000) != nil)
            #expect(try store.snapListings(feedID: nil, viewerID: fixture.bob.id, now: 0).map(\.id) == [fresh.id])
            // Even with a clock that went backwards, an erased snap cannot be opened.
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: old.id, viewerID: fixture.bob.id, now: 0) }
                    == .expired)
            #expect(try store.largestStoredImage() == 50)
            let statistics = try fixture.statistics(now: 2_000)
            #expect(statistics["image_bytes_stored"] == 50)
            #expect(statistics["snaps_live"] == 1 && statistics["snaps_expired"] == 1)
        }
    }

    @Test("statistics name every counter, in order, and count what is stored", arguments: StoreEngine.all)
    func statistics(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let snap = try fixture.post(by: fixture.alice, image: [1, 2, 3])
            try fixture.post(by: fixture.alice, expiresAt: 1_500, image: [4])
            _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 1_000)
            try store.createSession(userID: fixture.bob.id, tokenHash: [UInt8](repeating: 1, count: 32), at: 1, expiresAt: 5_000)
            try store.createSession(userID: fixture.bob.id, tokenHash: [UInt8](repeating: 2, count: 32), at: 1, expiresAt: 1_000)
            let statistics = try store.statistics(now: 2_000)
            #expect(
                statistics.map(\.name) == [
                    "users", "admins", "feeds", "snaps_live", "snaps_expired", "views",
                    "image_bytes_stored", "database_bytes", "sessions",
                ])
            let values = try fixture.statistics(now: 2_000)
            #expect(values["users"] == 3 && values["admins"] == 1 && values["feeds"] == 3)
            #expect(values["snaps_live"] == 1 && values["snaps_expired"] == 1 && values["views"] == 1)
            #expect(values["image_bytes_stored"] == 4)
            #expect((values["database_bytes"] ?? 0) > 0)
            #expect(values["sessions"] == 1)
        }
    }

    @Test("the largest stored image counts snaps, album photos and thumbnails", arguments: StoreEngine.all)
    func largestStoredImage(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            #expect(try store.largestStoredImage() == 0)
            let memes = try #require(try store.feed(named: "Memes"))
            let snap = try store.insertSnap(
                NewSnap(
                    feedID: memes.id, posterID: fixture.alice.id, image: [UInt8](repeating: 1, count: 10),
                    sha256: [UInt8](repeating: 0, count: 32), format: .png, width: 1, height: 1,
                    postedAt: 1, expiresAt: 100))
            #expect(try store.largestStoredImage() == 10)
            let (pin, photos) = try fixture.pinWithPendingPhotos(2)
            _ = try store.storePhotoImage(fixture.fetched(photos[0], bytes: [UInt8](repeating: 2, count: 20)), at: 30)
            #expect(try store.largestStoredImage() == 20)
            _ = try store.storePhotoImage(fixture.fetched(photos[1], bytes: [3], thumbnail: [UInt8](repeating: 4, count: 30)), at: 31)
            #expect(try store.largestStoredImage() == 30)
            try store.deletePin(id: pin.id, userID: fixture.alice.id)
            #expect(try store.largestStoredImage() == 10)
            try store.deleteSnap(id: snap.id)
            #expect(try store.largestStoredImage() == 0)
        }
    }

    @Test(
        "compaction keeps every snap not deleted, and inside a transaction leaves the transaction's work in place",
        arguments: StoreEngine.all)
    func compactKeepsWhatRemains(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let kept = try fixture.post(by: fixture.alice, image: [UInt8](repeating: 5, count: 300))
            let gone = try fixture.post(by: fixture.alice, image: [UInt8](repeating: 6, count: 400))
            try store.deleteSnap(id: gone.id)
            try store.compact()
            #expect(try store.largestStoredImage() == 300)
            try store.transaction {
                #expect(try store.resetFeed(id: try fixture.feed(named: "Random").id) == 0)
                try fixture.post(by: fixture.bob, image: [7])
                try store.compact()
            }
            #expect(try store.snapListings(feedID: nil, viewerID: fixture.carol.id, now: 2_000).count == 2)
            #expect(
                try store.claimView(snapID: kept.id, viewerID: fixture.bob.id, now: 2_000).image
                    == [UInt8](repeating: 5, count: 300))
        }
    }
}
