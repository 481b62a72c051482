import Client
import Crypto
import Foundation
import Imaging
import TestSupport
import Testing
import Wire

/// A client that stops reading: the server's socket to it fills, OpenSSL is told to wait, and
/// the rest of each reply waits as plaintext until the socket drains.
@Suite struct BackpressureTests {
    @Test("a client that stops reading gets every pipelined reply intact once it reads again, and others are served meanwhile")
    func aStalledReaderGetsEverything() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer")
        // About 1 MB: noise does not compress.
        let image = try ImageCodec.encodePNG(RGBImage.noise(side: 577, seed: 24))
        let count = 24
        var snaps: [SnapInfo] = []
        for _ in 0..<count { snaps.append(try poster.post(feed: "Memes", image: image)) }

        // About 24 MB of replies pipelined on one connection, and not a byte read back yet: far
        // more than a loopback socket pair holds (a few MB of send buffer, 128 KB unread).
        let connection = viewer.connection
        var waiting: [UInt32: UInt64] = [:]
        for snap in snaps { waiting[try connection.send(OpenSnap(snapID: snap.id))] = snap.id }
        // Wait until the server has found the socket full (its count is the only sign of it). The
        // deadline only turns a socket that never fills into a failure instead of a hang.
        try eventually("the server to find the viewer's socket full", timeout: 60, every: 0.01) {
            server.server.metrics.socketSendWaits > 0
        }
        #expect(server.server.metrics.socketSendWaits > 0, "the socket never filled, so nothing waited")
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
        // The connection is still in step afterwards.
        #expect(try viewer.whoAmI().username == "viewer")
    }
}
