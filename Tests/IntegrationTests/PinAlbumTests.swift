import Client
import Crypto
import Foundation
import Imaging
import Server
import TestSupport
import Testing
import Wire

/// The pins, albums, photos and map requests of one logged-in user, sent as raw protocol
/// messages (no client-side checks), so the server's own rules are what is tested.
struct PinRequests {
    let session: SnapshareSession

    func drop(_ latitude: Double, _ longitude: Double) throws -> PinInfo {
        (try session.request(AddPin(latitude: latitude, longitude: longitude)) as PinResult).pin
    }
    func pins() throws -> [PinInfo] { (try session.request(ListPins()) as Pins).pins }
    func delete(pin id: UInt64) throws { let _: Ok = try session.request(DeletePin(pinID: id)) }
    func album(_ pinID: UInt64) throws -> Album { try session.request(GetAlbum(pinID: pinID)) }
    func newCollection(_ pinID: UInt64) throws -> Album { try session.request(NewCollection(pinID: pinID)) }
    func photo(_ id: UInt64, _ variant: PhotoVariant = .full) throws -> PhotoImage {
        try session.request(GetPhoto(photoID: id, variant: variant))
    }
    func delete(photo id: UInt64) throws { let _: Ok = try session.request(DeletePhoto(photoID: id)) }
    func random() throws -> RandomPinResult { try session.request(RandomPin()) }
    func map() throws -> MapState { try session.request(GetMapState()) }
    func setMap(_ latitude: Double, _ longitude: Double, zoom: Double) throws -> MapState {
        try session.request(SetMapState(centerLatitude: latitude, centerLongitude: longitude, zoom: zoom))
    }

    /// Asks for the album until `done` is true of it: asking is how a client learns how a
    /// download goes. Not a timing assertion: the deadline only turns a hung download into a
    /// failure instead of a hung test run.
    func album(_ pinID: UInt64, until done: (Album) -> Bool) throws -> Album {
        var last = "never read"
        return try eventually("the album of pin \(pinID) to get there (it stayed \(last))", timeout: 120) { () throws -> Album? in
            let album = try album(pinID)
            last = "\(album.state.name), \(album.done)/\(album.expected)"
            return done(album) ? album : nil
        }
    }

    /// The album once it is no longer downloading.
    func settled(_ pinID: UInt64) throws -> Album { try album(pinID) { $0.state != .downloading } }
}

/// The server error code `body` fails with, or nil.
func serverCode(_ body: () throws -> Void) -> ErrorCode? { clientError(body)?.serverCode }

/// Places the built-in photo source knows, and one it cannot: the South Pacific.
enum Spots {
    static let annArbor = (latitude: 42.2808, longitude: -83.7430)
    static let paris = (latitude: 48.8566, longitude: 2.3522)
    static let southPacific = (latitude: -40.0, longitude: -130.0)
}

@Suite("Pins and albums", .serialized)
struct PinAlbumTests {
    @Test("a dropped pin is listed, its album fills in the background with real photos, and deleting it removes everything")
    func dropListFillAndDelete() throws {
        let server = try TestServer()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        #expect(pin.latitude == Spots.annArbor.latitude && pin.longitude == Spots.annArbor.longitude)
        #expect(pin.expected == UInt32(Albums.photosPerAlbum), "the search answered before the reply")
        #expect(try alice.pins().map(\.id) == [pin.id])

        let album = try alice.settled(pin.id)
        #expect(album.state == .ready && album.error.isEmpty)
        #expect(album.done == album.expected && album.photos.count == Int(album.expected))
        #expect(album.photos.map(\.position) == Array(0..<UInt32(album.photos.count)))
        for photo in album.photos {
            #expect(photo.state == .ready && photo.pinID == pin.id && !photo.title.isEmpty && !photo.place.isEmpty)
            #expect(photo.width > 0 && photo.height > 0 && photo.byteCount > 0)
        }
        let first = album.photos[0]
        let full = try alice.photo(first.id)
        #expect(SHA256.hash(full.image) == full.sha256 && full.image.count == Int(first.byteCount) && full.photo == first)
        let header = try ImageHeader.parse(full.image)
        #expect(header.width == Int(first.width) && header.height == Int(first.height))
        let thumbnail = try alice.photo(first.id, .thumbnail)
        #expect(SHA256.hash(thumbnail.image) == thumbnail.sha256 && thumbnail.variant == .thumbnail)
        let small = try ImageCodec.decode(thumbnail.image)
        #expect(small.width <= 120 && small.height <= 90)

        try alice.delete(pin: pin.id)
        #expect(try alice.pins().isEmpty)
        #expect(serverCode { _ = try alice.album(pin.id) } == .notFound)
        #expect(serverCode { _ = try alice.photo(first.id) } == .notFound)
        #expect(serverCode { try alice.delete(pin: pin.id) } == .notFound)
    }

    @Test("the expected count is known before any image arrives, and done counts up photo by photo")
    func progressIsReportedUpFront() throws {
        let server = try TestServer()
        server.server.albums.pauseFetches()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.paris.latitude, Spots.paris.longitude)
        #expect(pin.albumState == .downloading && pin.expected == 21 && pin.done == 0)
        let waiting = try alice.album(pin.id)
        #expect(waiting.state == .downloading && waiting.expected == 21 && waiting.done == 0)
        #expect(waiting.photos.count == 21 && waiting.photos.allSatisfy { $0.state == .pending })
        #expect(waiting.photos.allSatisfy { !$0.title.isEmpty && !$0.place.isEmpty && $0.byteCount == 0 })
        #expect(serverCode { _ = try alice.photo(waiting.photos[0].id) } == .notFound, "a placeholder has no bytes yet")

        for done in 1...3 {
            server.server.albums.allowFetches(1)
            let album = try alice.album(pin.id) { $0.done >= UInt32(done) }
            #expect(album.done == UInt32(done) && album.state == .downloading)
            #expect(album.photos.filter { $0.state != .pending }.count == done)
        }
        server.server.albums.resumeFetches()
        let album = try alice.settled(pin.id)
        #expect(album.state == .ready && album.done == 21 && album.expected == 21)
        #expect(album.photos.map(\.id) == waiting.photos.map(\.id), "the placeholders became the photos")
    }

    @Test("a pin in the middle of the ocean has an empty album, not an error")
    func midOceanAlbumIsEmpty() throws {
        let server = try TestServer()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.southPacific.latitude, Spots.southPacific.longitude)
        #expect(pin.albumState == .empty && pin.expected == 0)
        let album = try alice.album(pin.id)
        #expect(album.state == .empty && album.photos.isEmpty && album.error.isEmpty)
        let random = try alice.random()
        #expect(random.pin?.id == pin.id && random.photo == nil)
        #expect(random.description.hasPrefix("in the middle of nowhere"))
    }

    @Test("coordinates outside the Earth are refused with a clear message and the connection stays usable")
    func invalidCoordinatesAreRefused() throws {
        let server = try TestServer()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        for (latitude, longitude, word) in [
            (90.0001, 0.0, "latitude"), (-91.0, 0.0, "latitude"),
            (0.0, 180.5, "longitude"), (0.0, -181.0, "longitude"),
        ] {
            let error = clientError { _ = try alice.drop(latitude, longitude) }
            #expect(error?.serverCode == .invalidArgument)
            #expect(error?.message.contains(word) == true && error?.message.contains("between") == true, "\(error?.message ?? "")")
        }
        #expect(try alice.pins().isEmpty)
        // The edges of the map are real places.
        let corner = try alice.drop(-90, 180)
        #expect(try alice.pins().map(\.id) == [corner.id])
    }

    @Test("another user can neither see, change nor use my pins and photos")
    func pinsArePrivate() throws {
        let server = try TestServer()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let bob = PinRequests(session: try server.registeredSession("bob"))
        let pin = try alice.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        let album = try alice.settled(pin.id)
        let photo = try #require(album.photos.first)

        #expect(try bob.pins().isEmpty)
        #expect(try bob.random() == RandomPinResult(pin: nil, description: "No pins yet", photo: nil))
        let hidden = clientError { _ = try bob.album(pin.id) }
        let missing = clientError { _ = try bob.album(pin.id + 1000) }
        #expect(hidden?.serverCode == .notFound && missing?.serverCode == .notFound)
        #expect(hidden?.message == "you have no pin \(pin.id)", "the same answer as for a pin that does not exist")
        #expect(serverCode { _ = try bob.newCollection(pin.id) } == .notFound)
        #expect(serverCode { try bob.delete(pin: pin.id) } == .notFound)
        #expect(serverCode { _ = try bob.photo(photo.id) } == .notFound)
        #expect(serverCode { _ = try bob.photo(photo.id, .thumbnail) } == .notFound)
        #expect(serverCode { try bob.delete(photo: photo.id) } == .notFound)

        #expect(try alice.album(pin.id) == album, "nothing of alice's changed")
    }

    @Test("New Collection is refused while the album downloads, then brings a different set")
    func newCollectionIsRefusedWhileBusyAndDifferentAfter() throws {
        let server = try TestServer()
        server.server.albums.pauseFetches()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.paris.latitude, Spots.paris.longitude)
        let busy = clientError { _ = try alice.newCollection(pin.id) }
        #expect(busy?.serverCode == .albumBusy)
        #expect(busy?.message.contains("still downloading") == true)
        server.server.albums.resumeFetches()
        let before = try alice.settled(pin.id)
        #expect(before.state == .ready)

        let fresh = try alice.newCollection(pin.id)
        #expect(fresh.state == .downloading || fresh.state == .ready)
        #expect(fresh.photos.count == Int(fresh.expected), "a slot for every photo the search found")
        let after = try alice.settled(pin.id)
        // A full page, or the last page of Paris's results, which is shorter.
        let total = try BuiltinPhotoProvider.bundled().total(latitude: Spots.paris.latitude, longitude: Spots.paris.longitude)
        let perPage = Albums.photosPerAlbum
        let lastPage = total % perPage == 0 ? perPage : total % perPage
        #expect(after.expected == UInt32(perPage) || after.expected == UInt32(lastPage), "\(after.expected) photos of \(total)")
        #expect(after.state == .ready && after.done == after.expected && after.photos.count == Int(after.expected))
        #expect(Set(after.photos.map(\.id)).isDisjoint(with: before.photos.map(\.id)), "the old photos are gone")
        let describe = { (album: Album) in Set(album.photos.map { "\($0.title)|\($0.latitude)|\($0.longitude)" }) }
        #expect(describe(after) != describe(before), "another page of the source, not the same photos again")
        for old in before.photos.prefix(3) { #expect(serverCode { _ = try alice.photo(old.id) } == .notFound) }
    }

    @Test("removing a photo keeps the others in their order, even while the album downloads")
    func removingPhotosKeepsOrder() throws {
        let server = try TestServer()
        server.server.albums.pauseFetches()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        let pending = try alice.album(pin.id).photos
        // A placeholder can go too: its fetch's result is dropped.
        try alice.delete(photo: pending[4].id)
        server.server.albums.resumeFetches()
        let album = try alice.settled(pin.id)
        #expect(album.state == .ready && album.expected == 20 && album.done == 20)
        #expect(album.photos.map(\.id) == pending.map(\.id).filter { $0 != pending[4].id })

        let removed = album.photos[2]
        try alice.delete(photo: removed.id)
        let after = try alice.album(pin.id)
        #expect(after.photos.map(\.id) == album.photos.map(\.id).filter { $0 != removed.id })
        #expect(
            after.photos.map(\.position) == album.photos.map(\.position).filter { $0 != removed.position },
            "positions are not renumbered")
        #expect(after.expected == 19 && after.state == .ready)
        #expect(serverCode { _ = try alice.photo(removed.id) } == .notFound)
        #expect(serverCode { try alice.delete(photo: removed.id) } == .notFound)
    }

    @Test("Random Pin picks one of my pins and one of that pin's ready photos")
    func randomPinPicksFromMyOwn() throws {
        let server = try TestServer()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let bob = PinRequests(session: try server.registeredSession("bob"))
        #expect(try alice.random() == RandomPinResult(pin: nil, description: "No pins yet", photo: nil))
        _ = try bob.drop(Spots.paris.latitude, Spots.paris.longitude)
        let city = try alice.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        let ocean = try alice.drop(Spots.southPacific.latitude, Spots.southPacific.longitude)
        let photos = try alice.settled(city.id).photos
        for _ in 0..<30 {
            let pick = try alice.random()
            let pin = try #require(pick.pin)
            #expect([city.id, ocean.id].contains(pin.id))
            if pin.id == city.id {
                let photo = try #require(pick.photo)
                #expect(photos.contains(photo) && photo.pinID == city.id)
                #expect(pick.description.contains("Ann Arbor"), "\(pick.description)")
            } else {
                #expect(pick.photo == nil && !pick.description.isEmpty)
            }
        }
    }

    @Test("the saved map view is the whole world until saved, is checked, and survives a restart")
    func mapViewSurvivesRestart() throws {
        let server = try TestServer()
        var alice = PinRequests(session: try server.registeredSession("alice"))
        #expect(try alice.map() == MapState(centerLatitude: 0, centerLongitude: 0, zoom: 1))
        #expect(try alice.setMap(48.85, 2.35, zoom: 6.5) == MapState(centerLatitude: 48.85, centerLongitude: 2.35, zoom: 6.5))
        #expect(serverCode { _ = try alice.setMap(0, 0, zoom: 0.5) } == .invalidArgument)
        #expect(serverCode { _ = try alice.setMap(0, 0, zoom: 65) } == .invalidArgument)
        #expect(serverCode { _ = try alice.setMap(95, 0, zoom: 2) } == .invalidArgument)
        #expect(serverCode { _ = try alice.setMap(0, -200, zoom: 2) } == .invalidArgument)

        try server.restart()
        let (session, home) = try server.session()
        _ = try session.login(username: "alice", password: "correct horse battery")
        alice = PinRequests(session: session)
        #expect(try alice.map() == MapState(centerLatitude: 48.85, centerLongitude: 2.35, zoom: 6.5))
        let bob = PinRequests(session: try server.registeredSession("bob"))
        #expect(try bob.map() == MapState(centerLatitude: 0, centerLongitude: 0, zoom: 1), "each user has their own")
        _ = home
    }

    @Test("an album cut by a restart resumes where it stopped and finishes")
    func interruptedAlbumResumes() throws {
        let server = try TestServer()
        server.server.albums.pauseFetches()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.paris.latitude, Spots.paris.longitude)
        server.server.albums.allowFetches(2)
        let cut = try alice.album(pin.id) { $0.done >= 2 }
        let kept = cut.photos.filter { $0.state == .ready }
        #expect(cut.state == .downloading && kept.count == 2)

        try server.restart()
        let (session, home) = try server.session()
        _ = try session.login(username: "alice", password: "correct horse battery")
        let again = PinRequests(session: session)
        let album = try again.settled(pin.id)
        #expect(album.state == .ready && album.done == 21 && album.expected == 21)
        #expect(album.photos.map(\.id) == cut.photos.map(\.id), "the same slots, fetched where they stopped")
        for photo in kept { #expect(album.photos.contains(photo), "photos stored before the restart are kept as they were") }
        _ = home
    }

    @Test("deleting a pin while its album downloads stops the download and leaves no rows behind")
    func deletingDownloadingPinLeavesNothing() throws {
        let server = try TestServer()
        server.server.albums.pauseFetches()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        let doomed = try alice.album(pin.id).photos
        try alice.delete(pin: pin.id)
        server.server.albums.resumeFetches()
        let kept = try alice.drop(Spots.paris.latitude, Spots.paris.longitude)
        _ = try alice.settled(kept.id)
        #expect(serverCode { _ = try alice.album(pin.id) } == .notFound)
        #expect(serverCode { _ = try alice.photo(doomed[0].id) } == .notFound)
        #expect(try server.count("SELECT count(*) FROM photos WHERE pin_id = \(Int64(pin.id))") == 0)
        #expect(try server.count("SELECT count(*) FROM photo_images") == 21)
    }

    @Test("one user's pins are capped with a clear message")
    func pinsPerUserAreCapped() throws {
        let server = try TestServer()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        // Fill up to the cap straight through the store (as a second writer on the same file),
        // rather than with a thousand album downloads.
        do {
            let store = try server.openStore()
            let user = try #require(try store.user(named: "alice"))
            try store.transaction {
                for index in 0..<Albums.maxPinsPerUser {
                    let pin = try store.insertPin(
                        NewPin(
                            userID: user.id, latitude: Double(index % 90), longitude: 0, createdAt: 1,
                            provider: "builtin", perPage: 21))
                    _ = try store.failAlbum(pinID: pin.id, generation: 0, message: "seeded", at: 1)
                }
            }
        }
        let error = clientError { _ = try alice.drop(1, 1) }
        #expect(error?.serverCode == .invalidArgument)
        #expect(error?.message.contains("1000 pins") == true, "\(error?.message ?? "")")
        #expect(try alice.pins().count == Albums.maxPinsPerUser)
    }
}

/// Albums from the Flickr photo source, against the fake Flickr server on 127.0.0.1.
@Suite("Pins and albums from Flickr", .serialized)
struct FlickrAlbumTests {
    static func server(_ flickr: FakeFlickrServer, key: String = FakeFlickrServer.validKey) throws -> TestServer {
        try TestServer { $0.photoSource = .flickr(key: key, endpoint: flickr.endpoint) }
    }

    @Test("an album from Flickr fills with its photos, placed by the gazetteer when Flickr names no place")
    func flickrAlbumFills() throws {
        let flickr = try FakeFlickrServer(behaviour: .photos(total: 100))
        defer { flickr.stop() }
        let server = try Self.server(flickr)
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        #expect(pin.expected == 21)
        let album = try alice.settled(pin.id)
        #expect(album.state == .ready && album.done == 21)
        #expect(album.photos.allSatisfy { $0.state == .ready && !$0.place.isEmpty })
        let image = try alice.photo(album.photos[0].id)
        #expect(try ImageHeader.parse(image.image).format == .jpeg)
        #expect(flickr.searchRequests.count == 1 && flickr.searchRequests[0].query["per_page"] == "21")
    }

    @Test("a bad API key fails the album with Flickr's message, never as an empty album")
    func badKeyFailsAlbum() throws {
        let flickr = try FakeFlickrServer()
        defer { flickr.stop() }
        let server = try Self.server(flickr, key: "not-the-key")
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        #expect(pin.albumState == .failed && pin.expected == 0)
        let album = try alice.album(pin.id)
        #expect(album.state == .failed && album.photos.isEmpty)
        #expect(album.error.contains("Invalid API Key"), "\(album.error)")
    }

    @Test("a photo source that never answers fails the album with a timeout, never leaving it downloading")
    func silentSourceFailsAlbum() throws {
        let flickr = try FakeFlickrServer(behaviour: .slow)
        defer { flickr.stop() }
        let server = try TestServer {
            $0.photoSource = .flickr(key: FakeFlickrServer.validKey, endpoint: flickr.endpoint)
            $0.photoRequestTimeoutSeconds = 1
        }
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.annArbor.latitude, Spots.annArbor.longitude)
        let album = try alice.settled(pin.id)
        #expect(album.state == .failed && album.error.contains("did not answer"), "\(album.error)")
        #expect(try alice.pins().first?.albumState == .failed)
    }

    @Test("photos Flickr cannot serve are marked failed, and an album of only such photos fails with the reason")
    func brokenImagesFailTheirPhotos() throws {
        let flickr = try FakeFlickrServer(behaviour: .photos(total: 3))
        flickr.imageBehaviour = .notAnImage
        defer { flickr.stop() }
        let server = try Self.server(flickr)
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.paris.latitude, Spots.paris.longitude)
        let album = try alice.settled(pin.id)
        #expect(album.state == .failed && album.expected == 3 && album.done == 3)
        #expect(album.photos.allSatisfy { $0.state == .failed })
        #expect(album.error.hasPrefix("could not download any of the album's 3 photos"), "\(album.error)")
        #expect(serverCode { _ = try alice.photo(album.photos[0].id) } == .notFound)
    }

    @Test("an album left downloading from another photo source fails at the next start with what to do")
    func changedSourceFailsUnfinishedAlbum() throws {
        let flickr = try FakeFlickrServer()
        defer { flickr.stop() }
        let server = try TestServer()
        server.server.albums.pauseFetches()
        let alice = PinRequests(session: try server.registeredSession("alice"))
        let pin = try alice.drop(Spots.paris.latitude, Spots.paris.longitude)
        server.stop()

        var configuration = server.configuration
        configuration.port = 0
        configuration.photoSource = .flickr(key: FakeFlickrServer.validKey, endpoint: flickr.endpoint)
        let second = try SnapshareServer(configuration: configuration, logger: Logger(level: .error))
        let port = try second.start()
        defer { second.stop() }
        let home = TemporaryDirectory("snapshare-home")
        let session = try SnapshareSession(
            settings: ConnectionSettings(host: "127.0.0.1", port: port, caFile: server.caPath),
            state: ClientState(directory: home.path)
        ) { _ in }
        _ = try session.login(username: "alice", password: "correct horse battery")
        let again = PinRequests(session: session)
        let album = try again.settled(pin.id)
        #expect(album.state == .failed && album.error.contains("New Collection"), "\(album.error)")
        let fresh = try again.newCollection(pin.id)
        #expect(fresh.expected == 21)
        #expect(try again.settled(pin.id).state == .ready, "a New Collection fetches it from the new source")
    }
}
