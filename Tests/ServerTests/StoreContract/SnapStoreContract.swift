import Foundation
import TestSupport
import Testing

@testable import Server

/// What every engine's `SnapStore` does; the view-once claim above all.
@Suite("Snap store contract")
struct SnapStoreContract {
    @Test("a listing is newest first, live only, and marks sent, read and unread", arguments: StoreEngine.all)
    func listingStatuses(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let own = try fixture.post(by: fixture.bob, at: 1_000)
            let opened = try fixture.post(by: fixture.alice, at: 2_000)
            let unread = try fixture.post(by: fixture.alice, at: 3_000)
            let sameTime = try fixture.post(by: fixture.carol, at: 3_000)
            let expired = try fixture.post(by: fixture.alice, at: 500, expiresAt: 1_500)
            let elsewhere = try fixture.post(by: fixture.alice, at: 2_500, feedID: try fixture.feed(named: "random").id)
            _ = try store.claimView(snapID: opened.id, viewerID: fixture.bob.id, now: 2_000)

            let listing = try store.snapListings(feedID: fixture.feed.id, viewerID: fixture.bob.id, now: 2_000)
            #expect(listing.map(\.id) == [sameTime.id, unread.id, opened.id, own.id])
            #expect(listing.map(\.status) == [.unread, .unread, .read, .sent])
            #expect(listing[0].feedName == "Memes" && listing[0].posterName == "carol" && listing[0].posterID == fixture.carol.id)
            #expect(listing[0].byteCount == 16 && listing[0].width == 4 && listing[0].height == 3)
            #expect(listing[0].format == .png && listing[0].postedAt == 3_000 && listing[0].expiresAt == 10_000)

            let all = try store.snapListings(feedID: nil, viewerID: fixture.bob.id, now: 2_000)
            #expect(all.map(\.id) == [sameTime.id, unread.id, elsewhere.id, opened.id, own.id])

            // One snap by id: expired ones too, so callers can tell EXPIRED from NOT_FOUND.
            #expect(try store.snapListing(id: expired.id, viewerID: fixture.bob.id, now: 2_000)?.id == expired.id)
            #expect(try store.snapListing(id: opened.id, viewerID: fixture.bob.id, now: 0)?.status == .read)
            #expect(try store.snapListing(id: 9_999, viewerID: fixture.bob.id, now: 0) == nil)
            // Only the poster sees how many opened a snap.
            #expect(try store.snapListing(id: opened.id, viewerID: fixture.alice.id, now: 0)?.openedCount == 1)
            #expect(try store.snapListing(id: opened.id, viewerID: fixture.alice.id, now: 0)?.status == .sent)
            #expect(try store.snapListing(id: opened.id, viewerID: fixture.bob.id, now: 0)?.openedCount == 0)
        }
    }

    @Test(
        "a posted snap comes back as its poster sees it; a missing feed or poster is not found, and an empty image round-trips",
        arguments: StoreEngine.all)
    func insertSnap(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let posted = try store.insertSnap(
                NewSnap(
                    feedID: fixture.feed.id, posterID: fixture.alice.id, image: [1, 2, 3, 4, 5],
                    sha256: [UInt8](repeating: 0xCD, count: 32), format: .jpeg,
                    width: 640, height: 480, postedAt: 1_000, expiresAt: 5_000))
            #expect(
                posted
                    == SnapListing(
                        id: posted.id, feedName: "Memes", posterName: "alice", postedAt: 1_000,
                        expiresAt: 5_000, status: .sent, byteCount: 5, width: 640, height: 480,
                        format: .jpeg, posterID: fixture.alice.id, openedCount: 0))
            #expect(
                try store.claimView(snapID: posted.id, viewerID: fixture.bob.id, now: 2_000).sha256
                    == [UInt8](repeating: 0xCD, count: 32))
            #expect(storeErrorKind { try fixture.post(by: fixture.alice, feedID: 777) } == .notFound)
            let nobody = UserRecord(id: 999, name: "nobody", passwordHash: "", isAdmin: false, createdAt: 0)
            #expect(storeErrorKind { try fixture.post(by: nobody) } == .notFound)
            let empty = try fixture.post(by: fixture.alice, image: [])
            #expect(empty.byteCount == 0)
            #expect(try store.claimView(snapID: empty.id, viewerID: fixture.bob.id, now: 2_000).image == [])
        }
    }

    @Test("the first open wins, a second is refused, and a restored view allows exactly one more", arguments: StoreEngine.all)
    func claimViewOnce(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let image: [UInt8] = Array(0...255)
            let snap = try fixture.post(by: fixture.alice, image: image)

            let opened = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000)
            #expect(opened.image == image)
            #expect(opened.sha256 == [UInt8](repeating: 0xAB, count: 32))
            #expect(opened.listing.status == .read && opened.listing.id == snap.id)
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_001) }
                    == .alreadyViewed)
            // Another viewer has their own single view.
            #expect(try store.claimView(snapID: snap.id, viewerID: fixture.carol.id, now: 2_002).image == image)

            try store.restoreView(snapID: snap.id, userID: fixture.bob.id)
            #expect(try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_003).image == image)
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_004) }
                    == .alreadyViewed)
            #expect(storeErrorKind { try store.restoreView(snapID: snap.id, userID: fixture.alice.id) } == .notFound)
            #expect(storeErrorKind { try store.restoreView(snapID: 9_999, userID: fixture.bob.id) } == .notFound)
        }
    }

    @Test(
        "opening your own, an expired or a missing snap is refused, in that order of checks, and leaves no view",
        arguments: StoreEngine.all)
    func claimViewRefusals(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let snap = try fixture.post(by: fixture.alice, expiresAt: 5_000)
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: 424_242, viewerID: fixture.bob.id, now: 0) }
                    == .notFound)
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.alice.id, now: 2_000) }
                    == .ownSnap)
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 5_000) }
                    == .expired)
            // Own beats expired.
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: snap.id, viewerID: fixture.alice.id, now: 9_000) }
                    == .ownSnap)
            #expect(try store.snapViewers(snapID: snap.id).isEmpty)
            #expect(try store.snapListing(id: snap.id, viewerID: fixture.bob.id, now: 0)?.status == .unread)
        }
    }

    @Test(
        "a claim whose body throws is rolled back: the error comes out and the view is still there to take",
        arguments: StoreEngine.all)
    func claimViewBodyThrows(engine: StoreEngine) throws {
        struct CopyFailed: Error {}
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let snap = try fixture.post(by: fixture.alice, image: [7, 7, 7])
            #expect(throws: CopyFailed.self) {
                try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000) { listing, _, image -> Int in
                    #expect(try listing.id == snap.id && image.array() == [7, 7, 7])
                    throw CopyFailed()
                }
            }
            #expect(try store.snapViewers(snapID: snap.id).isEmpty)
            #expect(try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_001).image == [7, 7, 7])
        }
    }

    @Test("who opened a snap is listed first opened first", arguments: StoreEngine.all)
    func snapViewers(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let snap = try fixture.post(by: fixture.alice)
            #expect(try store.snapViewers(snapID: snap.id).isEmpty)
            _ = try store.claimView(snapID: snap.id, viewerID: fixture.carol.id, now: 2_000)
            _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 3_000)
            #expect(
                try store.snapViewers(snapID: snap.id)
                    == [SnapViewerRecord(name: "carol", viewedAt: 2_000), SnapViewerRecord(name: "bob", viewedAt: 3_000)])
            try store.restoreView(snapID: snap.id, userID: fixture.carol.id)
            #expect(try store.snapViewers(snapID: snap.id).map(\.name) == ["bob"])
        }
    }

    @Test("deleting a snap removes it with its views, and its id is never given to another", arguments: StoreEngine.all)
    func deleteSnap(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let kept = try fixture.post(by: fixture.alice)
            let deleted = try fixture.post(by: fixture.alice)
            _ = try store.claimView(snapID: deleted.id, viewerID: fixture.bob.id, now: 2_000)
            try store.deleteSnap(id: deleted.id)
            #expect(storeErrorKind { try store.deleteSnap(id: deleted.id) } == .notFound)
            #expect(
                storeErrorKind { _ = try store.claimView(snapID: deleted.id, viewerID: fixture.carol.id, now: 2_000) }
                    == .notFound)
            #expect(try store.snapListing(id: deleted.id, viewerID: 0, now: 0) == nil)
            #expect(try store.snapViewers(snapID: deleted.id).isEmpty)
            #expect(try store.userSummaries(now: 0).first { $0.name == "bob" }?.viewCount == 0)
            #expect(try store.snapListings(feedID: nil, viewerID: fixture.bob.id, now: 2_000).map(\.id) == [kept.id])
            // A client holding an old listing can never open a different snap by its id.
            #expect(try fixture.post(by: fixture.alice).id > deleted.id)
        }
    }

    @Test(
        "threads racing to open the same snap as the same viewer: exactly one wins",
        .timeLimit(.minutes(2)), arguments: StoreEngine.all)
    func claimViewRace(engine: StoreEngine) throws {
        try engine.withDatabase { open in
            let fixture = try StoreFixture(store: try open())
            let racers = 8
            let stores = try (0..<racers).map { _ in RacingStore(try open()) }
            for round in 0..<15 {
                let snapID = try fixture.post(by: fixture.alice, at: Int64(1_000 + round)).id
                let viewerID = fixture.bob.id
                let outcomes = Race.run(
                    stores.map { racer in
                        { () -> String in
                            do {
                                return try racer.store.claimView(snapID: snapID, viewerID: viewerID, now: 2_000).image.isEmpty
                                    ? "empty" : "won"
                            } catch let error as StoreError {
                                return "\(error.kind)"
                            }
                        }
                    }
                ).map { result in (try? result.get()) ?? "\(result)" }
                #expect(
                    Dictionary(outcomes.map { ($0, 1) }, uniquingKeysWith: +) == ["won": 1, "alreadyViewed": racers - 1], "round \(round)")
                #expect(try fixture.store.snapViewers(snapID: snapID).map(\.name) == ["bob"], "round \(round)")
            }
        }
    }
}

/// A store handed to exactly one racing thread.
private final class RacingStore: @unchecked Sendable {
    let store: any SnapshareStore
    init(_ store: any SnapshareStore) { self.store = store }
}
