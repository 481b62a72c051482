import Foundation
import TestSupport
import Testing

/// The server closes a connection idle longer than the Welcome's `idle_timeout_seconds`. A
/// session about to send after such a pause (a student who spent minutes in the camera's preview,
/// or at a prompt) opens a new connection first, so a post — which is never sent twice — goes on
/// a live one instead of failing on the closed one.
@Suite struct IdleReconnectTests {
    @Test("a post after a pause longer than the server's idle timeout goes through, on a new connection")
    func postAfterIdleTimeout() throws {
        let log = LogCapture()
        let server = try TestServer(log: log) {
            $0.idleTimeoutMilliseconds = 2000
            $0.logLevel = .debug
        }
        let session = try server.registeredSession("sleepy")
        #expect(session.welcome.idleTimeoutSeconds == 2)
        _ = try session.post(feed: "Memes", image: try TestImages.sample(1))
        #expect(session.reconnections == 0, "no pause, no new connection")
        // The pause lasts until the server closes the idle connection (the client reads nothing
        // while it pauses: the server's log says when).
        try log.waitForLines(containing: "closing: TIMEOUT: idle for 2 s")
        let snap = try session.post(feed: "Memes", image: try TestImages.sample(2))
        #expect(snap.feed == "Memes")
        #expect(session.reconnections == 1, "one new connection after the pause")
    }
}
