import Client
import Foundation
import Synchronization
import TestSupport
import Testing
import Wire

/// The heart of it: the server, not the client, makes a snap open once per viewer.
@Suite struct ViewOnceTests {
    @Test func concurrentOpensFromManyConnectionsHaveExactlyOneWinner() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer", password: "viewer password")
        _ = viewer
        let connections = 8
        for round in 0..<5 {
            let snap = try poster.post(feed: "Random", image: TestImages.sample(5))
            // Each racer has its own connection (own TLS session), logged in as the same user.
            var sessions: [SnapshareSession] = []
            for _ in 0..<connections {
                let (session, home) = try server.session()
                _ = try session.login(username: "viewer", password: "viewer password")
                sessions.append(session)
                _ = home
            }
            let outcome = OpenRace.run(sessions, snapID: snap.id)
            #expect(outcome.wins == 1, "round \(round)")
            #expect(outcome.alreadyViewed == connections - 1, "round \(round)")
            #expect(outcome.other == 0)
        }
    }

    @Test func pipelinedOpensOnOneConnectionHaveExactlyOneWinner() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer")
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(6))
        var ids: [UInt32] = []
        for _ in 0..<10 { ids.append(try viewer.connection.send(OpenSnap(snapID: snap.id))) }
        var images = 0
        var refused = 0
        for _ in ids {
            let frame = try viewer.connection.receive()
            if frame.type == MessageType.snapImage.rawValue {
                images += 1
            } else if (try? frame.decode(ErrorMessage.self))?.code == .alreadyViewed {
                refused += 1
            }
        }
        #expect(images == 1)
        #expect(refused == 9)
    }

    @Test func expiredSnapsCannotBeOpenedAndTheirBytesAreErased() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock) { $0.snapTTLMilliseconds = 1000 }
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer")
        let marker = TestImages.sample(7)
        let snap = try poster.post(feed: "Memes", image: marker)
        time.advance(byMilliseconds: 999)
        #expect(try viewer.snaps(feed: nil).snaps.map(\.id) == [snap.id], "a snap lives its whole lifetime")
        time.advance(byMilliseconds: 1)
        #expect(clientError { _ = try viewer.open(snapID: snap.id) }?.serverCode == .expired)
        #expect(try viewer.snaps(feed: nil).snaps.isEmpty, "expired snaps are not listed")
        // The purge runs on the writer thread; once it has committed the image row is gone, and
        // with SQLite its bytes are gone from the files too (the checkpoint after the commit runs
        // before the batch's completions; on PostgreSQL the deleted row's pages are reused by
        // PostgreSQL's own vacuum).
        try server.purgeExpired()
        let probe = Array(marker[2000..<2064])
        func erased() throws -> Bool {
            try server.count("SELECT count(*) FROM snap_images WHERE snap_id = \(Int64(snap.id))") == 0
                && (!TestServer.usesSQLite || !DatabaseFiles.contain(probe, in: server.dataPath))
        }
        #expect(try erased(), "the image of an expired snap must be erased from the database (and SQLite's files)")
        #expect(clientError { _ = try viewer.open(snapID: snap.id) }?.serverCode == .expired)
    }

    @Test func postsAndViewsSurviveARestart() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer", password: "viewer password")
        let seen = try poster.post(feed: "Memes", image: TestImages.sample(8))
        let unseen = try poster.post(feed: "Memes", image: TestImages.sample(9))
        _ = try viewer.open(snapID: seen.id)
        try server.restart()
        let (again, _) = try server.session()
        _ = try again.login(username: "viewer", password: "viewer password")
        let states = Dictionary(uniqueKeysWithValues: try again.snaps(feed: "Memes").snaps.map { ($0.id, $0.state) })
        #expect(states[seen.id] == .read)
        #expect(states[unseen.id] == .unread)
        #expect(clientError { _ = try again.open(snapID: seen.id) }?.serverCode == .alreadyViewed)
        #expect(try again.open(snapID: unseen.id).image == TestImages.sample(9))
    }

    @Test func acknowledgedPostsAndViewsSurviveKillNine() throws {
        let directory = TemporaryDirectory("snapshare-kill9")
        let port = ServerProcess.freePort()
        var process: ServerProcess? = try ServerProcess(
            dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port)
        let settings = ConnectionSettings(host: "127.0.0.1", port: port, caFile: directory.file("certs/ca.pem"))
        let home = TemporaryDirectory("snapshare-home")
        let poster = try SnapshareSession(settings: settings, state: ClientState(directory: home.path)) { _ in }
        _ = try poster.register(username: "poster", password: "poster password", classCode: "")
        let viewerHome = TemporaryDirectory("snapshare-home")
        let viewer = try SnapshareSession(settings: settings, state: ClientState(directory: viewerHome.path)) { _ in }
        _ = try viewer.register(username: "viewer", password: "viewer password", classCode: "")
        var posted: [UInt64] = []
        for i in 1...5 { posted.append(try poster.post(feed: "Random", image: TestImages.sample(i)).id) }
        _ = try viewer.open(snapID: posted[0])
        _ = try viewer.open(snapID: posted[3])
        process?.killHard()
        process = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port)
        let after = try SnapshareSession(settings: settings, state: ClientState(directory: viewerHome.path)) { _ in }
        _ = try after.resumeSavedSession()
        let listed = try after.snaps(feed: "Random").snaps
        #expect(Set(listed.map(\.id)) == Set(posted))
        #expect(Set(listed.filter { $0.state == .read }.map(\.id)) == [posted[0], posted[3]])
        #expect(clientError { _ = try after.open(snapID: posted[0]) }?.serverCode == .alreadyViewed)
        process?.stop()
    }
}

/// Searches the SQLite files of a data folder for a byte string.
enum DatabaseFiles {
    static func contain(_ needle: [UInt8], in directory: String) -> Bool {
        for name in ["snapshare.db", "snapshare.db-wal"] {
            guard let data = FileManager.default.contents(atPath: directory + "/" + name) else { continue }
            if Data(data).range(of: Data(needle)) != nil { return true }
        }
        return false
    }
}
