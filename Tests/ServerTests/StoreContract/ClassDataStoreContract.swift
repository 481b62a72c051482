import Foundation
import TestSupport
import Testing
import Wire

@testable import Server

/// What every engine does with the class's snaps as a whole: purging by age, the export's
/// pages, an admin's look at a picture, and the end of a term.
@Suite("Class data store contract")
struct ClassDataStoreContract {
    @Test(
        "snaps posted before a time are counted and deleted with their views, expired ones too; later ones stay", arguments: StoreEngine.all
    )
    func purgeByAge(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let old = try fixture.post(by: fixture.alice, at: 1_000, expiresAt: 1_500)
            let older = try fixture.post(by: fixture.alice, at: 500)
            let recent = try fixture.post(by: fixture.alice, at: 3_000)
            _ = try store.claimView(snapID: older.id, viewerID: fixture.bob.id, now: 600)
            #expect(try store.countSnaps(postedBefore: 2_000) == 2)
            #expect(try store.deleteSnaps(postedBefore: 2_000) == 2)
            #expect(try store.countSnaps(postedBefore: 2_000) == 0)
            #expect(try store.snapListing(id: old.id, viewerID: fixture.bob.id, now: 0) == nil)
            #expect(try store.snapViewers(snapID: older.id).isEmpty)
            #expect(try store.snapListing(id: recent.id, viewerID: fixture.bob.id, now: 0) != nil)
        }
    }

    @Test("the export's pages hold every snap lowest id first with its viewers and whether its picture is kept", arguments: StoreEngine.all)
    func exportPages(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let first = try fixture.post(by: fixture.alice, at: 1_000)
            let erased = try fixture.post(by: fixture.bob, at: 1_100, expiresAt: 1_200)
            let third = try fixture.post(by: fixture.alice, at: 1_300, feedID: try fixture.feed(named: "Random").id)
            _ = try store.claimView(snapID: first.id, viewerID: fixture.carol.id, now: 1_400)
            _ = try store.claimView(snapID: first.id, viewerID: fixture.bob.id, now: 1_500)
            _ = try store.purgeExpired(now: 2_000)

            let page = try store.exportedSnaps(afterID: 0, limit: 2, includePending: false)
            #expect(page.total == 3 && page.snaps.map(\.id) == [UInt64(first.id), UInt64(erased.id)])
            #expect(
                page.snaps[0].viewers == [SnapViewer(username: "carol", viewedAt: 1_400), SnapViewer(username: "bob", viewedAt: 1_500)])
            #expect(page.snaps[0].feed == "Memes" && page.snaps[0].poster == "alice" && page.snaps[0].pictureKept)
            #expect(page.snaps[0].postedAt == 1_000 && page.snaps[0].expiresAt == 10_000 && page.snaps[0].imageKind == .png)
            #expect(!page.snaps[1].pictureKept && page.snaps[1].viewers.isEmpty)
            let next = try store.exportedSnaps(afterID: Int64(page.snaps[1].id), limit: 2, includePending: false)
            #expect(next.snaps.map(\.id) == [UInt64(third.id)] && next.snaps[0].feed == "Random")
            #expect(try store.exportedSnaps(afterID: third.id, limit: 2, includePending: false).snaps.isEmpty)
        }
    }

    @Test(
        "an export leaves snaps awaiting approval out unless asked, marks them when asked, and counts each snap's open reports",
        arguments: StoreEngine.all)
    func exportsMarkPendingAndReportedSnaps(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let approved = try fixture.post(by: fixture.alice, at: 1_000)
            let pending = try fixture.post(by: fixture.bob, at: 1_100, awaitingApproval: true)
            try store.addReport(snapID: approved.id, reporterID: fixture.bob.id, reason: "rude", at: 1_200)
            try store.addReport(snapID: approved.id, reporterID: fixture.carol.id, reason: "spam", at: 1_300)

            let plain = try store.exportedSnaps(afterID: 0, limit: 10, includePending: false)
            #expect(plain.total == 1 && plain.snaps.map(\.id) == [UInt64(approved.id)], "the pending snap is left out")
            #expect(plain.snaps[0].reportCount == 2 && !plain.snaps[0].awaitingApproval)
            let all = try store.exportedSnaps(afterID: 0, limit: 10, includePending: true)
            #expect(all.total == 2 && all.snaps.map(\.id) == [UInt64(approved.id), UInt64(pending.id)])
            #expect(all.snaps[1].awaitingApproval && all.snaps[1].reportCount == 0)
        }
    }

    @Test("an admin's look at a picture claims no view; an erased one is expired, an unknown one not found", arguments: StoreEngine.all)
    func pictureWithoutView(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let snap = try fixture.post(by: fixture.alice, at: 1_000, expiresAt: 1_500, image: [9, 8, 7])
            #expect(try store.snapPicture(id: snap.id) == [9, 8, 7])
            #expect(try store.snapViewers(snapID: snap.id).isEmpty)
            #expect(try store.claimView(snapID: snap.id, viewerID: fixture.carol.id, now: 1_200).image == [9, 8, 7])
            _ = try store.purgeExpired(now: 2_000)
            #expect(storeErrorKind { _ = try store.snapPicture(id: snap.id) } == .expired)
            #expect(storeErrorKind { _ = try store.snapPicture(id: 9_999) } == .notFound)
        }
    }

    @Test(
        "the end of a term removes snaps, views and sessions, and the students unless kept; admins and feeds stay",
        arguments: StoreEngine.all)
    func endOfTerm(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let snap = try fixture.post(by: fixture.alice)
            _ = try store.claimView(snapID: snap.id, viewerID: fixture.bob.id, now: 2_000)
            for (user, byte) in [(fixture.alice, UInt8(1)), (fixture.carol, 2)] {
                try store.createSession(userID: user.id, tokenHash: [UInt8](repeating: byte, count: 32), at: 1, expiresAt: 99_000)
            }
            try store.putRosterEntry(RosterEntry(name: "alice", displayName: "Alice", isAdmin: false, addedAt: 1))
            try store.putRosterEntry(RosterEntry(name: "dora", displayName: "Dora", isAdmin: false, addedAt: 1))
            #expect(
                try store.endTerm(keepAccounts: true, keepRoster: true)
                    == TermCleared(snaps: 1, views: 1, sessions: 2, accounts: 0, rosterEntries: 0))
            #expect(try store.user(named: "alice") != nil)
            #expect(try store.rosterEntry(named: "alice")?.claimedBy == fixture.alice.id)
            _ = try fixture.post(by: fixture.bob)
            // A roster kept while the accounts go frees its names to be registered again.
            #expect(
                try store.endTerm(keepAccounts: false, keepRoster: true)
                    == TermCleared(snaps: 1, views: 0, sessions: 0, accounts: 2, rosterEntries: 0))
            #expect(try store.rosterEntry(named: "alice").map { $0.claimedBy == nil } == true)
            #expect(
                try store.endTerm(keepAccounts: true, keepRoster: false)
                    == TermCleared(snaps: 0, views: 0, sessions: 0, accounts: 0, rosterEntries: 2))
            #expect(try store.rosterMembers().isEmpty)
            #expect(try store.user(named: "alice") == nil && store.user(named: "bob") == nil)
            #expect(try store.user(named: "carol")?.isAdmin == true)
            #expect(try store.feed(named: "Memes") != nil)
        }
    }
}
