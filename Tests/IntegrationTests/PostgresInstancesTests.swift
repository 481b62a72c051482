import Client
import Foundation
import Server
import Synchronization
import TestSupport
import Testing
import Wire

/// Several snapshare-server instances sharing one PostgreSQL database (issue 13): each test
/// starts two real servers (real TLS, their own ports and certificates) on one fresh database
/// of the test cluster.
@Suite("Instances sharing PostgreSQL", .serialized, .enabled(if: PostgresCluster.shared != nil, "PostgreSQL is not installed"))
struct PostgresInstancesTests {
    static func instances(_ count: Int = 2) throws -> (servers: [TestServer], drop: @Sendable () -> Void) {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        let servers = try (0..<count).map { _ in try TestServer { $0.database = conninfo } }
        return (servers, drop)
    }

    @Test("an account, a session and a post made on one instance are there on the other; logout on one ends the session on both")
    func sharedAccountsSessionsAndFeeds() throws {
        let (servers, drop) = try Self.instances()
        defer { drop() }
        let (a, b) = (servers[0], servers[1])
        let (alice, aliceHome) = try a.session()
        let identity = try alice.register(username: "alice", password: "correct horse battery", classCode: a.configuration.classCode ?? "")
        _ = aliceHome
        let posted = try alice.post(feed: "Memes", image: TestImages.sample(1))

        // The token from A logs in on B, and B lists A's post.
        let (onB, _) = try b.session()
        let resumed: Authenticated = try onB.request(Resume(token: identity.token))
        #expect(resumed.username == "alice")
        #expect(try onB.snaps(feed: "Memes").snaps.map(\.id) == [posted.id])

        // A second user on B sees the snap unread and opens it once; A sees it opened.
        let bob = try b.registeredSession("bob")
        #expect(try bob.snaps(feed: nil).snaps.first?.state == .unread)
        #expect(try bob.open(snapID: posted.id).image == TestImages.sample(1))
        #expect(clientError { _ = try bob.open(snapID: posted.id) }?.serverCode == .alreadyViewed)
        #expect(try alice.snaps(feed: "Memes").snaps.first?.openedCount == 1)

        // The offline admin command works on the shared database: the new admin is one on both.
        let added = try Subprocess.run(
            "snapshare-server",
            [
                "admin", "add", "teacher", "--password-stdin",
                "--database", a.configuration.database!,
            ], stdin: "teacher password\n")
        #expect(added.status == 0, "\(added.stderr)")
        let (teacher, _) = try b.session()
        _ = try teacher.login(username: "teacher", password: "teacher password")
        #expect(try teacher.users().map(\.username).contains("alice"), "an admin request on the other instance")

        // Logout on A ends the session everywhere: B refuses the token.
        try alice.logout()
        let (late, _) = try b.session()
        #expect(clientError { let _: Authenticated = try late.request(Resume(token: identity.token)) }?.kind == .auth)
    }

    @Test("opens of one snap by one user spread over two instances at once: exactly one succeeds", arguments: 0..<3)
    func oneViewAcrossInstances(round: Int) throws {
        let (servers, drop) = try Self.instances()
        defer { drop() }
        let poster = try servers[0].registeredSession("poster")
        _ = try servers[0].registeredSession("viewer", password: "viewer password")
        let snap = try poster.post(feed: "Random", image: TestImages.sample(3))
        var racers: [SnapshareSession] = []
        for index in 0..<8 {
            let (session, _) = try servers[index % 2].session()
            _ = try session.login(username: "viewer", password: "viewer password")
            racers.append(session)
        }
        let outcome = OpenRace.run(racers, snapID: snap.id)
        #expect(outcome.wins == 1 && outcome.alreadyViewed == 7 && outcome.other == 0)
    }

    @Test("pins, albums and the map view live in the database: dropped on one instance, seen and used on the other")
    func pinsAndMapAcrossInstances() throws {
        let (servers, drop) = try Self.instances()
        defer { drop() }
        let onA = PinRequests(session: try servers[0].registeredSession("traveller"))
        let (sessionB, _) = try servers[1].session()
        _ = try sessionB.login(username: "traveller", password: "correct horse battery")
        let onB = PinRequests(session: sessionB)
        let pin = try onA.drop(Spots.paris.latitude, Spots.paris.longitude)
        let album = try onB.settled(pin.id)
        #expect(album.state == .ready && !album.photos.isEmpty, "\(album.state) \(album.error)")
        if let first = album.photos.first {
            #expect(try onA.photo(first.id).image == (try onB.photo(first.id).image))
        }
        _ = try onB.setMap(10, 20, zoom: 4)
        let map = try onA.map()
        #expect(map.centerLatitude == 10 && map.centerLongitude == 20 && map.zoom == 4)
    }

    @Test("a watcher polling one instance sees a post and its own open made on the other (LISTEN/NOTIFY)")
    func pollSeesOtherInstancesChanges() throws {
        let (servers, drop) = try Self.instances()
        defer { drop() }
        let poster = try servers[0].registeredSession("poster")
        let watcher = try servers[1].registeredSession("watcher")
        let (watcherOnA, _) = try servers[0].session()
        _ = try watcherOnA.login(username: "watcher", password: "correct horse battery")

        /// Polls, as the client does, until the version moves; nil when it does not in 20 s.
        func changed(after known: UInt64) throws -> UInt64? {
            try Polling.first(timeout: 20, every: 0.01) {
                let result = try watcher.poll(knownVersion: known)
                return result.changed ? result.version : nil
            }
        }

        var version = try watcher.poll(knownVersion: 0).version
        #expect(try !watcher.poll(knownVersion: version).changed, "nothing happened yet")
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(4))
        let afterPost = try #require(try changed(after: version), "the post on A never reached a poll on B")
        #expect(try watcher.snaps(feed: "Memes").snaps.map(\.id) == [snap.id])
        version = afterPost
        _ = try watcherOnA.open(snapID: snap.id)
        #expect(try changed(after: version) != nil, "the watcher's own open on A never reached a poll on B")
        #expect(try watcher.snaps(feed: "Memes").snaps.first?.state == .read)
    }

    @Test(
        """
        PostgreSQL stopping and starting again: the instance stays up, \
        says STORAGE_FAILURE meanwhile, and carries on with nothing acknowledged lost
        """
    )
    func databaseOutage() throws {
        let cluster = try PostgresCluster()
        let (conninfo, _) = try cluster.makeDatabase()
        let server = try TestServer { $0.database = conninfo }
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer")
        let acknowledged = try poster.post(feed: "Memes", image: TestImages.sample(5))

        try cluster.stopServer()
        let during = clientError { _ = try poster.post(feed: "Memes", image: TestImages.sample(6)) }
        #expect(during?.serverCode == .storageFailure, "\(String(describing: during))")
        #expect(during?.message.contains("unavailable") == true || during?.message.contains("storage") == true)

        try cluster.startServer()
        // Each of the server's connections finds out on its next use and connects again: asking
        // again is how the server, and a client, learn that PostgreSQL is back.
        let listed = try eventually("a listing to succeed again", every: 0.1) { try? viewer.snaps(feed: "Memes").snaps.map(\.id) }
        #expect(listed == [acknowledged.id], "the acknowledged post is there, the refused one is not")
        let opened = try eventually("an open to succeed again", every: 0.1) { () throws -> SnapImage? in
            do { return try viewer.open(snapID: acknowledged.id) } catch {
                guard (error as? ClientError)?.serverCode == .storageFailure else { throw error }
                return nil
            }
        }
        #expect(opened.image == TestImages.sample(5))
        server.stop()
    }

    @Test("migrate copies a SQLite class into an empty PostgreSQL database, counts checked, and refuses a database that is not empty")
    func migrateFromSQLite() throws {
        let sqlite = try TestServer { $0.database = nil } // the source is SQLite whatever the run stores in
        let (alice, _) = try sqlite.session()
        let identity = try alice.register(
            username: "alice", password: "correct horse battery", classCode: sqlite.configuration.classCode ?? "")
        let bob = try sqlite.registeredSession("bob")
        let snap = try alice.post(feed: "Memes", image: TestImages.sample(7))
        let unopened = try alice.post(feed: "Random", image: TestImages.sample(8))
        _ = try bob.open(snapID: snap.id)
        let pins = PinRequests(session: bob)
        let pin = try pins.drop(Spots.paris.latitude, Spots.paris.longitude)
        let album = try pins.settled(pin.id)
        _ = try pins.setMap(48.8, 2.3, zoom: 8)
        _ = try bob.addMovie(MovieInfo(title: "Amélie", genre: "Comedy", sales: 174_000_000))
        sqlite.stop()

        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        let migrated = try Subprocess.run("snapshare-server", ["migrate", "--from", sqlite.dataPath, "--to", conninfo])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        for line in [
            "users              2", "snaps              2", "views              1", "pins               1", "movies             1",
        ] {
            #expect(migrated.stdout.contains(line), "\(line): \(migrated.stdout)")
        }

        let postgres = try TestServer { $0.database = conninfo }
        // The old token still works: sessions came along.
        let (resumed, _) = try postgres.session()
        let who: Authenticated = try resumed.request(Resume(token: identity.token))
        #expect(who.username == "alice")
        let (bobAgain, _) = try postgres.session()
        _ = try bobAgain.login(username: "bob", password: "correct horse battery")
        let listed = try bobAgain.snaps(feed: nil).snaps
        #expect(Set(listed.map(\.id)) == [snap.id, unopened.id])
        #expect(clientError { _ = try bobAgain.open(snapID: snap.id) }?.serverCode == .alreadyViewed, "the view came along")
        #expect(try bobAgain.open(snapID: unopened.id).image == TestImages.sample(8))
        let pinsAgain = PinRequests(session: bobAgain)
        #expect(try pinsAgain.album(pin.id).photos.map(\.id) == album.photos.map(\.id))
        if let first = album.photos.first { #expect(!(try pinsAgain.photo(first.id).image.isEmpty)) }
        #expect(try pinsAgain.map().zoom == 8)
        #expect(try bobAgain.movies().map(\.title) == ["Amélie"])
        // New rows continue after the copied ids.
        #expect(try bobAgain.post(feed: "Memes", image: TestImages.sample(1)).id > unopened.id)

        let again = try Subprocess.run("snapshare-server", ["migrate", "--from", sqlite.dataPath, "--to", conninfo])
        #expect(again.status == 1 && again.stderr.contains("not empty"), "\(again.stderr)")
    }

    @Test("an album is fetched by one instance; when that instance dies mid-album another finishes it after the lease runs out")
    func albumTakeover() throws {
        let (conninfo, drop) = try PostgresCluster.shared!.makeDatabase()
        defer { drop() }
        func shortLeases(_ config: inout ServerConfiguration) {
            config.database = conninfo
            config.albumLeaseMilliseconds = 1_500
            config.albumLeaseScanMilliseconds = 200
        }
        let logB = LogCapture()
        let a = try TestServer(shortLeases)
        let b = try TestServer(log: logB, shortLeases)
        a.server.albums.pauseFetches()
        let onA = PinRequests(session: try a.registeredSession("traveller"))
        let pin = try onA.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        // A holds the album, stuck on its paused fetches, and keeps renewing: B leaves it alone.
        // What must not happen has no event: a window longer than the lease, B scanning throughout.
        Thread.sleep(forTimeInterval: 2.5)
        #expect(logB.lines(containing: "taking over the album of pin \(pin.id)").isEmpty, "B took over an album A was still downloading")
        #expect(try onA.album(pin.id).state == .downloading)

        // A dies (its downloads stop, its lease is no longer renewed): B finishes the album.
        a.stop()
        let (sessionB, _) = try b.session()
        _ = try sessionB.login(username: "traveller", password: "correct horse battery")
        let album = try PinRequests(session: sessionB).settled(pin.id)
        #expect(
            album.state == .ready && album.done == album.expected && album.expected > 0, "\(album.state) \(album.done)/\(album.expected)")
        #expect(!logB.lines(containing: "taking over the album of pin \(pin.id)").isEmpty)
    }

    @Test("pin drops by one user spread over two instances at once never pass the pin cap", arguments: 0..<3)
    func pinCapAcrossInstances(round: Int) throws {
        let (servers, drop) = try Self.instances()
        defer { drop() }
        _ = try servers[0].registeredSession("traveller")
        // Two below the cap, behind the servers' backs (albums ready, so nothing downloads).
        let store = try #require(try servers[0].openStore() as? SQLStore)
        let user = try #require(try store.user(named: "traveller"))
        let filled = Albums.maxPinsPerUser - 2
        let db = try #require(store.postgresConnection)
        try db.execute(
            "INSERT INTO pins (user_id, latitude, longitude, created_at) SELECT \(user.id), 0, 0, 0 FROM generate_series(1, \(filled))")
        try db.execute(
            """
            INSERT INTO albums (pin_id, state, provider, page, per_page, updated_at) SELECT id, 1, 'builtin', 1, 12, 0 FROM pins
            """)
        var racers: [PinRequests] = []
        for index in 0..<8 {
            let (session, _) = try servers[index % 2].session()
            _ = try session.login(username: "traveller", password: "correct horse battery")
            racers.append(PinRequests(session: session))
        }
        let results = Race.run(racers.map(UncheckedSendable.init).map { racer in { _ = try racer.value.drop(10, Double(round)) } })
        #expect(results.successes() == 2, "\(results)")
        #expect(
            results.failures().count == 6 && results.failures().allSatisfy { ($0 as? ClientError)?.serverCode == .invalidArgument },
            "\(results)")
        #expect(try store.pinCount(userID: user.id) == Albums.maxPinsPerUser)
    }

    @Test("New Collections of one album spread over two instances at once: exactly one starts", arguments: 0..<3)
    func newCollectionAcrossInstances(round: Int) throws {
        let (servers, drop) = try Self.instances()
        defer { drop() }
        let owner = PinRequests(session: try servers[0].registeredSession("traveller"))
        let pin = try owner.drop(48.85, 2.35)
        _ = try owner.album(pin.id) { $0.state != .downloading }
        var racers: [PinRequests] = []
        for index in 0..<6 {
            let (session, _) = try servers[index % 2].session()
            _ = try session.login(username: "traveller", password: "correct horse battery")
            racers.append(PinRequests(session: session))
        }
        let results = Race.run(racers.map(UncheckedSendable.init).map { racer in { _ = try racer.value.newCollection(pin.id) } })
        #expect(results.successes() == 1, "\(results)")
        #expect(
            results.failures().count == 5 && results.failures().allSatisfy { ($0 as? ClientError)?.serverCode == .albumBusy },
            "\(results)")
        _ = try owner.album(pin.id) { $0.state != .downloading }
    }

}
