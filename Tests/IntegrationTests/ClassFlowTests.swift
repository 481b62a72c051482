import Client
import Crypto
import Foundation
import TestSupport
import Testing
import Wire

/// The whole class over real TLS: an instructor and two students.
@Suite struct ClassFlowTests {
    @Test func twoStudentsAndAnAdminShareSnapsThatOpenOnce() throws {
        let server = try TestServer()
        let admin = try server.makeAdmin("teacher")
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")

        // The default feeds exist.
        #expect(try alice.feeds().map(\.name) == ["Dog Spots", "Memes", "Random"])

        // Alice posts to exactly one feed.
        let posted = try alice.post(feed: "Memes", image: TestImages.sample(3))
        #expect(posted.state == .sent)
        #expect(posted.feed == "Memes")
        #expect(posted.poster == "alice")
        #expect(posted.width == 256 && posted.height == 170)

        // Listings: sent for the poster, unread for others; no bytes are consumed by listing.
        #expect(try alice.snaps(feed: "Memes").snaps.map(\.state) == [.sent])
        for _ in 0..<3 { #expect(try bob.snaps(feed: nil).snaps.first?.state == .unread) }
        #expect(try bob.feeds().first { $0.name == "Memes" }?.unreadCount == 1)

        // Bob opens it once; the bytes are the posted ones.
        let opened = try bob.open(snapID: posted.id)
        #expect(opened.image == TestImages.sample(3))
        #expect(opened.sha256 == SHA256.hash(TestImages.sample(3)))
        #expect(try bob.snaps(feed: "Memes").snaps.first?.state == .read)
        #expect(try bob.feeds().first { $0.name == "Memes" }?.unreadCount == 0)

        // Never again for Bob; never for Alice, the poster.
        #expect(clientError { _ = try bob.open(snapID: posted.id) }?.serverCode == .alreadyViewed)
        #expect(clientError { _ = try alice.open(snapID: posted.id) }?.serverCode == .ownSnap)
        #expect(clientError { _ = try bob.open(snapID: 999_999) }?.serverCode == .notFound)

        // Students cannot use admin commands.
        #expect(clientError { _ = try bob.resetAllFeeds() }?.serverCode == .forbidden)

        // The admin gives Bob one more view, exactly one.
        let notOpened = clientError { try admin.restoreView(snapID: posted.id, username: "teacher") }
        #expect(
            notOpened?.serverCode == .notFound && notOpened?.message.contains("teacher has not opened snap") == true,
            "the admin asked by name and is answered by name: \(notOpened?.message ?? "")")
        try admin.restoreView(snapID: posted.id, username: "bob")
        #expect(try bob.open(snapID: posted.id).image.count == TestImages.sample(3).count)
        #expect(clientError { _ = try bob.open(snapID: posted.id) }?.serverCode == .alreadyViewed)

        // Feeds are managed by the admin.
        try admin.createFeed("Lecture 5")
        #expect(clientError { try admin.createFeed("lecture 5") }?.serverCode == .alreadyExists)
        _ = try bob.post(feed: "Lecture 5", image: TestImages.sample(1))
        #expect(try admin.resetFeed("Lecture 5") == 1)
        try admin.deleteFeed("Lecture 5")
        #expect(clientError { _ = try bob.post(feed: "Lecture 5", image: TestImages.sample(1)) }?.serverCode == .notFound)

        let users = try admin.users()
        #expect(users.map(\.username).sorted() == ["alice", "bob", "teacher"])
        #expect(users.first { $0.username == "alice" }?.postCount == 1)
        let stats = Dictionary(uniqueKeysWithValues: try admin.stats().map { ($0.name, $0.value) })
        #expect(stats["users"] == 3)
        #expect((stats["connections_open"] ?? 0) >= 3)

        // Reset everything.
        #expect(try admin.resetAllFeeds() == 1)
        #expect(try bob.snaps(feed: nil).snaps.isEmpty)
        #expect(clientError { _ = try bob.open(snapID: posted.id) }?.serverCode == .notFound)
        _ = admin
    }

    @Test func pollReportsChangesAndIsQuietOtherwise() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let first = try bob.snaps(feed: nil)
        #expect(try bob.poll(knownVersion: first.version).changed == false)
        let posted = try alice.post(feed: "Random", image: TestImages.sample(2))
        let poll = try bob.poll(knownVersion: first.version)
        #expect(poll.changed)
        #expect(try bob.poll(knownVersion: poll.version).changed == false)

        // An open changes what its viewer sees and the poster's count of opens, nothing of bob's.
        let carol = try server.registeredSession("carol")
        let carolBefore = try carol.snaps(feed: nil)
        let aliceBefore = try alice.snaps(feed: nil)
        _ = try carol.open(snapID: posted.id)
        let carolAfter = try carol.poll(knownVersion: carolBefore.version)
        #expect(carolAfter.changed, "the viewer's own snap went from unread to read")
        #expect(try carol.snaps(feed: nil).version == carolAfter.version)
        #expect(try bob.poll(knownVersion: poll.version).changed == false, "another user's open changes nothing bob sees")
        #expect(try alice.poll(knownVersion: aliceBefore.version).changed, "the poster sees the snap opened once more")

        // A post still reaches everyone, whatever each has opened.
        _ = try bob.post(feed: "Random", image: TestImages.sample(3))
        #expect(try carol.poll(knownVersion: carolAfter.version).changed)
        #expect(try alice.poll(knownVersion: aliceBefore.version).changed)
    }

    @Test func aFeedWatchFetchesOnlyAfterAChangeItsUserCanSeeAndDropsExpiredSnaps() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let carol = try server.registeredSession("carol")
        var watch = FeedWatch(feed: nil, wantsFeedNames: true)
        #expect(try watch.refresh(using: bob), "the first refresh always fetches")
        #expect(watch.listing.snaps.isEmpty)
        #expect(watch.feedNames == (try bob.feeds()).map(\.name), "every feed, empty ones included")
        #expect(try !watch.refresh(using: bob))

        let posted = try alice.post(feed: "Random", image: TestImages.sample(2))
        #expect(try watch.refresh(using: bob))
        #expect(watch.listing.snaps.map(\.id) == [posted.id])
        _ = try carol.open(snapID: posted.id)
        #expect(try !watch.refresh(using: bob), "carol's open changes nothing bob sees")
        _ = try bob.open(snapID: posted.id)
        #expect(try watch.refresh(using: bob))
        #expect(watch.listing.snaps.first?.state == .read)

        #expect(watch.liveSnaps(now: posted.expiresAt - 1).map(\.id) == [posted.id])
        #expect(watch.liveSnaps(now: posted.expiresAt).isEmpty, "gone the moment it expires")

        var named = FeedWatch(feed: "random", wantsFeedNames: true)
        try named.refresh(using: bob)
        #expect(named.feedNames == ["Random"], "the feed as the server spells it")
    }

    @Test func sessionsResumeOnNewConnectionsAndLogoutEndsThem() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("snapshare-home")
        let state = ClientState(directory: home.path)
        let first = try SnapshareSession(settings: server.settings(), state: state) { _ in }
        _ = try first.register(username: "carol", password: "long enough pw", classCode: "")
        let second = try SnapshareSession(settings: server.settings(), state: state) { _ in }
        #expect(try second.resumeSavedSession().username == "carol")
        try second.logout()
        let third = try SnapshareSession(settings: server.settings(), state: state) { _ in }
        #expect(clientError { _ = try third.resumeSavedSession() }?.kind == .auth)
        #expect(try third.login(username: "CAROL", password: "long enough pw").username == "carol")
        #expect(clientError { _ = try third.login(username: "carol", password: "wrong password") }?.serverCode == .badCredentials)
    }

    @Test func failedLoginsAreThrottled() throws {
        let server = try TestServer()
        _ = try server.registeredSession("dave", password: "the real password")
        let (session, _) = try server.session()
        for _ in 0..<5 {
            #expect(clientError { _ = try session.login(username: "dave", password: "guess guess") }?.serverCode == .badCredentials)
        }
        #expect(clientError { _ = try session.login(username: "dave", password: "the real password") }?.serverCode == .rateLimited)
    }

    @Test func registrationNeedsTheClassCodeWhenTheServerHasOne() throws {
        let server = try TestServer { $0.classCode = "CS193P" }
        let (session, _) = try server.session()
        #expect(
            clientError { _ = try session.register(username: "eve", password: "long enough pw", classCode: "nope") }?.serverCode
                == .badClassCode)
        let none = clientError { _ = try session.register(username: "eve", password: "long enough pw", classCode: "") }
        #expect(none?.serverCode == .badClassCode && none?.message.contains("needs a class code") == true, "\(none?.message ?? "")")
        #expect(try session.register(username: "eve", password: "long enough pw", classCode: "CS193P").username == "eve")
        #expect(
            clientError { _ = try session.register(username: "EVE", password: "long enough pw", classCode: "CS193P") }?.serverCode
                == .usernameTaken)
    }

    @Test func badInputGetsAClearErrorAndNothingIsStored() throws {
        let server = try TestServer { $0.maxImageBytes = 100_000 }
        let alice = try server.registeredSession("alice")
        #expect(clientError { _ = try alice.post(feed: "Memes", image: TestImages.sample(1)) }?.serverCode == .imageTooLarge)
        #expect(clientError { _ = try alice.post(feed: "Memes", image: Array("GIF89a not really".utf8)) }?.serverCode == .unsupportedImage)
        #expect(clientError { _ = try alice.post(feed: "Memes", image: TestImages.bombPNG()) }?.serverCode == .imageDimensionsTooLarge)
        #expect(clientError { _ = try alice.post(feed: "No Such Feed", image: TestImages.sample(4)) }?.serverCode == .notFound)
        #expect(clientError { _ = try alice.post(feed: "", image: TestImages.sample(4)) }?.serverCode == .invalidArgument)
        let (fresh, _) = try server.session()
        #expect(
            clientError { _ = try fresh.register(username: "x", password: "long enough pw", classCode: "") }?.serverCode == .invalidArgument
        )
        #expect(
            clientError { _ = try fresh.register(username: "okname", password: "short", classCode: "") }?.serverCode == .invalidArgument)
        #expect(try alice.snaps(feed: nil).snaps.isEmpty)
    }
}
