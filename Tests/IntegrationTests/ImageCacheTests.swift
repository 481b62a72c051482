import Client
import Crypto
import Foundation
import Server
import TestSupport
import Testing
import Wire

/// Photo and snap replies send images the server keeps in memory by SHA-256 (`ImageCache`).
/// Every rule a reply obeys is checked in the database before the cache is asked, so a cached
/// image must never outlive the right to see it.
@Suite("Image cache on the wire")
struct ImageCacheTests {
    @Test("a snap whose image is cached still opens once per viewer, and two snaps of one picture each open")
    func cachedSnapStillOpensOnce() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("poster")
        let ann = try server.registeredSession("ann")
        let ben = try server.registeredSession("ben")
        let picture = TestImages.sample(2)
        let first = try poster.post(feed: "Memes", image: picture)
        let second = try poster.post(feed: "Memes", image: picture)
        // Ann's open puts the image in the cache; Ben's is served from it.
        #expect(try ann.open(snapID: first.id).image == picture)
        #expect(try ben.open(snapID: first.id).image == picture)
        #expect(clientError { _ = try ann.open(snapID: first.id) }?.serverCode == .alreadyViewed)
        #expect(clientError { _ = try ben.open(snapID: first.id) }?.serverCode == .alreadyViewed)
        // The second snap shares the cached bytes but has views of its own.
        let opened = try ann.open(snapID: second.id)
        #expect(opened.image == picture && opened.sha256 == SHA256.hash(picture))
        #expect(clientError { _ = try ann.open(snapID: second.id) }?.serverCode == .alreadyViewed)
    }

    @Test("an expired snap and a reset feed are refused although their image is cached")
    func expiryAndResetBeatTheCache() throws {
        let time = ManualClock()
        let server = try TestServer(clock: time.clock) { $0.snapTTLMilliseconds = 1000 }
        let admin = try server.makeAdmin("teacher")
        let poster = try server.registeredSession("poster")
        let ann = try server.registeredSession("ann")
        let ben = try server.registeredSession("ben")
        let picture = TestImages.sample(3)
        let expiring = try poster.post(feed: "Memes", image: picture)
        #expect(try ann.open(snapID: expiring.id).image == picture)
        time.advance(byMilliseconds: 1000)
        #expect(clientError { _ = try ben.open(snapID: expiring.id) }?.serverCode == .expired)

        let reset = try poster.post(feed: "Random", image: picture)
        #expect(try ann.open(snapID: reset.id).image == picture)
        _ = try admin.resetFeed("Random")
        #expect(clientError { _ = try ben.open(snapID: reset.id) }?.serverCode == .notFound)
    }

    @Test("a removed photo, a deleted pin and another user's photo are refused although cached")
    func removedPhotosAreNotServedFromTheCache() throws {
        let server = try TestServer()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let mallory = PinRequests(session: try server.registeredSession("mallory"))
        let pin = try alice.drop(Spots.paris.latitude, Spots.paris.longitude)
        let album = try alice.settled(pin.id)
        try #require(album.state == .ready && album.photos.count >= 3)
        let (kept, removed) = (album.photos[0], album.photos[1])
        for photo in [kept, removed] {
            for variant in [PhotoVariant.full, .thumbnail] {
                // Twice: the first fills the cache, the second is served from it, byte for byte the same.
                let cold = try alice.photo(photo.id, variant)
                let warm = try alice.photo(photo.id, variant)
                #expect(cold == warm && SHA256.hash(warm.image) == warm.sha256)
            }
        }
        #expect(serverCode { _ = try mallory.photo(kept.id) } == .notFound)
        try alice.delete(photo: removed.id)
        #expect(serverCode { _ = try alice.photo(removed.id) } == .notFound)
        #expect(serverCode { _ = try alice.photo(removed.id, .thumbnail) } == .notFound)
        try alice.delete(pin: pin.id)
        #expect(serverCode { _ = try alice.photo(kept.id) } == .notFound)
    }
}
