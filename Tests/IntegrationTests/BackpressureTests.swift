import Client
import Foundation
import Shared
import Testing
import TestSupport

/// A client that stops reading: the server's socket to it fills, OpenSSL is told to wait, and
/// the rest of each reply waits as plaintext until the socket drains.
@Suite struct BackpressureTests {
    @Test("a client that stops reading gets every pipelined reply intact once it reads again, and others are served meanwhile")
    func aStalledReaderGetsEverything() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer")
        let image = TestImages.sample(1)
        let count = 60
        var snaps: [SnapInfo] = []
        for _ in 0..<count { snaps.append(try poster.post(feed: "Memes", image: image)) }

        // About 7 MB of replies pipelined on one connection, and not a byte read back yet: more
        // than a loopback socket pair holds (4 MB send buffer at most, 128 KB received unread).
        let connection = viewer.connection
        var waiting: [UInt32: UInt64] = [:]
        for snap in snaps { waiting[try connection.send(OpenSnap(snapID: snap.id))] = snap.id }
        // The loop is not stuck on the viewer's full socket: the poster is answered meanwhile.
        for _ in 0..<5 { #expect(try poster.whoAmI().username == "poster") }

        // Replies may come in any order (PROTOCOL.md); each request id gets exactly one.
        for _ in 0..<count {
            let frame = try connection.receive()
            let expected = waiting.removeValue(forKey: frame.requestID)
            let snapID = try #require(expected, "unexpected reply to request \(frame.requestID)")
            let reply: SnapImage = try frame.decode()
            #expect(reply.snap.id == snapID && reply.image == image && SHA256.hash(reply.image) == reply.sha256)
        }
        #expect(waiting.isEmpty)
        #expect(server.server.metrics.socketSendWaits > 0, "the socket never filled, so nothing waited")
        // The connection is still in step afterwards.
        #expect(try viewer.whoAmI().username == "viewer")
    }
}
