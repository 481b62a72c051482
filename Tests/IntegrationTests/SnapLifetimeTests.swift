import Client
import Foundation
import Server
import TestSupport
import Testing

/// `--snap-ttl` counts from when each snap was posted, for every snap: a reload (or restart)
/// with a shorter lifetime ends what it has ended at once, a longer one keeps live snaps longer.
///
/// A reload applies the new lifetime in one storage write, and that write, once done, queues the
/// purge: each is in once the server's queued writes have committed.
@Suite struct SnapLifetimeTests {
    @Test("a shorter snap-ttl at reload expires older snaps at once and erases their images")
    func shorterLifetimeAppliesAtOnce() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock)
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer")
        let old = try poster.post(feed: "Memes", image: TestImages.sample(1))
        time.advance(byMilliseconds: 2 * 3_600_000)
        let recent = try poster.post(feed: "Memes", image: TestImages.sample(2))
        var shorter = server.configuration
        shorter.snapTTLMilliseconds = 3_600_000
        server.server.reload(shorter, changedOptions: ["--snap-ttl"])
        try server.waitForQueuedWrites()
        #expect(try viewer.snaps(feed: nil).snaps.map(\.id) == [recent.id], "the two-hour-old snap is past an hour's lifetime")
        #expect(clientError { _ = try viewer.open(snapID: old.id) }?.serverCode == .expired)
        try server.waitForQueuedWrites()
        #expect(
            try server.count("SELECT count(*) FROM snap_images WHERE snap_id = \(Int64(old.id))") == 0,
            "its image is erased by the purge that follows")
        time.advance(byMilliseconds: 3_600_000)
        #expect(try viewer.snaps(feed: nil).snaps.isEmpty, "the recent one ends an hour after it was posted")
    }

    @Test("a longer snap-ttl keeps live snaps longer, counted from when they were posted")
    func longerLifetimeExtendsLiveSnaps() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock) { $0.snapTTLMilliseconds = 2 * 3_600_000 }
        let poster = try server.registeredSession("poster")
        let viewer = try server.registeredSession("viewer")
        let snap = try poster.post(feed: "Memes", image: TestImages.sample(3))
        time.advance(byMilliseconds: 3_600_000)
        var longer = server.configuration
        longer.snapTTLMilliseconds = 24 * 3_600_000
        server.server.reload(longer, changedOptions: ["--snap-ttl"])
        time.advance(byMilliseconds: 2 * 3_600_000)
        try server.waitForQueuedWrites()
        #expect(try viewer.snaps(feed: nil).snaps.map(\.id) == [snap.id])
        let info = try #require(try viewer.snaps(feed: nil).snaps.first)
        #expect(info.expiresAt == info.postedAt + 24 * 3_600_000)
    }
}
