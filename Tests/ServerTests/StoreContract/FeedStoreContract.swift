import Testing

@testable import Server

/// What every engine's `FeedStore` does.
@Suite("Feed store contract")
struct FeedStoreContract {
    @Test("a new store has the feeds Memes, Dog Spots and Random", arguments: StoreEngine.all)
    func defaultFeeds(engine: StoreEngine) throws {
        try engine.withStore { store in
            let feeds = try store.feedSummaries(viewerID: 0, now: 0)
            #expect(feeds.map(\.name) == ["Dog Spots", "Memes", "Random"])
            #expect(feeds.allSatisfy { $0.snapCount == 0 && $0.unreadCount == 0 })
        }
    }

    @Test("feed names are unique and found in any case", arguments: StoreEngine.all)
    func feedNamesAreCaseInsensitive(engine: StoreEngine) throws {
        try engine.withStore { store in
            let lecture = try store.createFeed(name: "Lecture 5", at: 7)
            #expect(lecture.name == "Lecture 5" && lecture.createdAt == 7)
            #expect(try store.feed(named: "LECTURE 5") == lecture)
            #expect(try store.feed(named: "Lecture 6") == nil)
            #expect(storeErrorKind { _ = try store.createFeed(name: "lecture 5", at: 8) } == .conflict)
            #expect(storeErrorKind { _ = try store.createFeed(name: "MEMES", at: 8) } == .conflict)
            #expect(try store.feedSummaries(viewerID: 0, now: 0).map(\.name) == ["Dog Spots", "Lecture 5", "Memes", "Random"])
        }
    }

    @Test("feeds and users are ordered by UTF-8 bytes after ASCII folding, on every engine", arguments: StoreEngine.all)
    func nameOrderIsTheSameOnEveryEngine(engine: StoreEngine) throws {
        try engine.withStore { store in
            for name in ["Élan", "zebra", "Zoo", "apple", "Äpfel", "Dog spots 2"] { _ = try store.createFeed(name: name, at: 1) }
            // ASCII letters fold to lower case; anything else sorts by its UTF-8 bytes (É and Ä after z).
            #expect(
                try store.feedSummaries(viewerID: 0, now: 0).map(\.name)
                    == ["apple", "Dog Spots", "Dog spots 2", "Memes", "Random", "zebra", "Zoo", "Äpfel", "Élan"])
            for name in ["émile", "Zed", "bob", "Ada"] {
                _ = try store.createUser(name: name, passwordHash: "x", isAdmin: false, at: 1)
            }
            #expect(try store.userSummaries(now: 0).map(\.name) == ["Ada", "bob", "Zed", "émile"])
        }
    }

    @Test("feed summaries count live snaps and the viewer's unread ones", arguments: StoreEngine.all)
    func feedSummaries(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            try fixture.post(by: fixture.bob) // bob's own: live, not unread for bob
            let seen = try fixture.post(by: fixture.alice)
            try fixture.post(by: fixture.alice) // unread
            try fixture.post(by: fixture.alice, expiresAt: 1_500) // expired at 2_000
            _ = try store.claimView(snapID: seen.id, viewerID: fixture.bob.id, now: 1_000)
            let memes = try #require(
                try store.feedSummaries(viewerID: fixture.bob.id, now: 2_000)
                    .first { $0.name == "Memes" })
            #expect(memes.id == fixture.feed.id)
            #expect(memes.snapCount == 3)
            #expect(memes.unreadCount == 1)
            let forCarol = try #require(
                try store.feedSummaries(viewerID: fixture.carol.id, now: 2_000)
                    .first { $0.name == "Memes" })
            #expect(forCarol.unreadCount == 3)
        }
    }

    @Test("deleting a feed removes it with its snaps, images and views, and no other feed's", arguments: StoreEngine.all)
    func deleteFeedCascades(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let snap = try fixture.post(by: fixture.alice, image: [UInt8](repeating: 1, count: 100))
            let survivor = try fixture.post(
                by: fixture.alice, image: [UInt8](repeating: 2, count: 40),
                feedID: try fixture.feed(named: "Random").id)
            _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000)
            _ = try store.claimView(snapID: survivor.id, viewerID: fixture.bob.id, now: 2_000)
            try store.deleteFeed(named: "MEMES")
            #expect(try store.feed(named: "Memes") == nil)
            #expect(try store.feedSummaries(viewerID: 0, now: 0).map(\.name) == ["Dog Spots", "Random"])
            #expect(try store.snapListing(id: snap.id, viewerID: 0, now: 0) == nil)
            #expect(try store.snapListing(id: survivor.id, viewerID: 0, now: 0) != nil)
            #expect(try store.snapViewers(snapID: snap.id).isEmpty)
            #expect(try store.userSummaries(now: 0).first { $0.name == "bob" }?.viewCount == 1)
            #expect(try fixture.statistics(now: 2_000)["image_bytes_stored"] == 40)
            #expect(storeErrorKind { try store.deleteFeed(named: "Memes") } == .notFound)
        }
    }

    @Test(
        "resetting a feed deletes its snaps with their views and counts them; resetting all empties every feed",
        arguments: StoreEngine.all)
    func resets(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let random = try fixture.feed(named: "Random")
            let opened = try fixture.post(by: fixture.alice)
            try fixture.post(by: fixture.bob)
            try fixture.post(by: fixture.bob, feedID: random.id)
            _ = try store.claimView(snapID: opened.id, viewerID: fixture.bob.id, now: 2_000)
            #expect(try store.resetFeed(id: fixture.feed.id) == 2)
            #expect(try store.resetFeed(id: fixture.feed.id) == 0)
            #expect(try store.snapListings(feedID: nil, viewerID: fixture.carol.id, now: 2_000).map(\.feedName) == ["Random"])
            #expect(try store.userSummaries(now: 0).first { $0.name == "bob" }?.viewCount == 0)
            try fixture.post(by: fixture.alice, feedID: try fixture.feed(named: "Dog Spots").id)
            #expect(try store.resetAllFeeds() == 2)
            #expect(try store.snapListings(feedID: nil, viewerID: fixture.carol.id, now: 2_000).isEmpty)
            #expect(try fixture.statistics(now: 2_000)["image_bytes_stored"] == 0)
            #expect(try store.resetAllFeeds() == 0)
            #expect(try store.feedSummaries(viewerID: 0, now: 0).count == 3, "feeds stay, only their snaps go")
        }
    }

    @Test(
        "a feed asked for by a mistyped name is not found, naming the closest feed; resets by name go through it",
        arguments: StoreEngine.all)
    func feedsByName(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            #expect(try store.requireFeed(named: "memes") == fixture.feed)
            do {
                _ = try store.requireFeed(named: "Memse")
                Issue.record("a missing feed was found")
            } catch let error as StoreError {
                #expect(error.kind == .notFound)
                #expect(error.message == "no feed named Memse; did you mean Memes?")
            }
            try fixture.post(by: fixture.alice)
            try fixture.post(by: fixture.alice, feedID: try fixture.feed(named: "Random").id)
            #expect(storeErrorKind { _ = try store.resetFeeds(named: "Nowhere") } == .notFound)
            #expect(try store.resetFeeds(named: "MEMES") == 1)
            #expect(try store.resetFeeds(named: nil) == 1)
        }
    }
}
