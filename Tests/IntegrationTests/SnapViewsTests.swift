import Client
import Foundation
import TestSupport
import Testing

/// Posters learn who opened their snaps: counts in listings, names and times on request.
@Suite struct SnapViewsTests {
    @Test func thePosterSeesOpenedCountsAndWhoOpenedWithWhen() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let carol = try server.registeredSession("carol")
        let snap = try alice.post(feed: "Memes", image: TestImages.sample(3))
        #expect(snap.openedCount == 0)
        let before = try alice.snaps(feed: "Memes").version
        _ = try bob.open(snapID: snap.id)
        #expect(try alice.poll(knownVersion: before).changed, "someone opening my snap changes what I see")
        _ = try carol.open(snapID: snap.id)
        let mine = try #require(try alice.snaps(feed: "Memes").snaps.first)
        #expect(mine.state == .sent && mine.openedCount == 2)
        #expect(try bob.snaps(feed: "Memes").snaps.first?.openedCount == 0, "others never see the count")
        let views = try alice.snapViews(snap.id)
        #expect(views.viewers.map(\.username) == ["bob", "carol"])
        #expect(views.viewers[0].viewedAt <= views.viewers[1].viewedAt)
        #expect(clientError { _ = try bob.snapViews(snap.id) }?.serverCode == .forbidden)
        let admin = try server.makeAdmin("teacher")
        #expect(try admin.snapViews(snap.id).viewers.count == 2, "admins may look too")
        try admin.restoreView(snapID: snap.id, username: "bob")
        #expect(try alice.snapViews(snap.id).viewers.map(\.username) == ["carol"])
        #expect(clientError { _ = try alice.snapViews(9999) }?.serverCode == .notFound)
    }

    @Test(
        """
        an admin who is not the poster gets the real opened_count; an expired snap, \
        its image erased, answers like a live one; a deleted one is NOT_FOUND
        """
    )
    func adminsExpiryAndDeletion() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock) { $0.snapTTLMilliseconds = 1000 }
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let admin = try server.makeAdmin("teacher")
        let snap = try alice.post(feed: "Memes", image: TestImages.sample(2))
        _ = try bob.open(snapID: snap.id)
        let asAdmin = try admin.snapViews(snap.id)
        #expect(asAdmin.snap.openedCount == 1 && asAdmin.snap.state != .sent, "the real count, the admin's own state")
        #expect(try admin.snaps(feed: "Memes").snaps.first?.openedCount == 0, "listings still show others 0")
        time.advance(byMilliseconds: 1000)
        try server.purgeExpired()
        #expect(try server.count("SELECT count(*) FROM snap_images WHERE snap_id = \(Int64(snap.id))") == 0, "the purge erased its image")
        let expired = try alice.snapViews(snap.id)
        #expect(expired.viewers.map(\.username) == ["bob"] && expired.snap.openedCount == 1, "views outlive the image")
        #expect(clientError { _ = try bob.snapViews(snap.id) }?.serverCode == .forbidden)
        try admin.deleteSnap(snap.id)
        #expect(clientError { _ = try alice.snapViews(snap.id) }?.serverCode == .notFound)
        #expect(clientError { _ = try bob.snapViews(snap.id) }?.serverCode == .notFound, "NOT_FOUND is checked before FORBIDDEN")
    }

    @Test func theFeedAndSnapCommandsShowIt() throws {
        let server = try TestServer()
        let alice = CommandLineTests.Student(server: server)
        let bob = CommandLineTests.Student(server: server)
        #expect(try alice.run("register", "alice", "--password-stdin", stdin: "alice password\n").status == 0)
        #expect(try bob.run("register", "bob", "--password-stdin", stdin: "bob password\n").status == 0)
        #expect(try alice.run("post", "--feed", "Memes", "--sample", "3").status == 0)
        #expect(try alice.run("feed", "memes").stdout.contains("➤ sent, not opened yet"))
        #expect(try bob.run("view", "1").status == 0)
        let feed = try alice.run("feed", "memes")
        #expect(feed.stdout.contains("➤ sent, opened by 1"), "\(feed.stdout)")
        #expect(feed.stdout.hasPrefix("Memes"), "the feed is titled as the server spells it: \(feed.stdout)")
        let details = try alice.run("snap", "1")
        #expect(details.status == 0, "\(details.stderr)")
        #expect(details.stdout.contains("Opened by 1:") && details.stdout.contains("bob"), "\(details.stdout)")
        #expect(try bob.run("snap", "1").status == 4, "only the poster and admins")
    }
}
