import Foundation
import SQLite
import TestSupport
import Testing

@testable import Client

@Suite("Vacation store")
struct VacationStoreTests {
    typealias Photo = VacationTestSupport

    @Test("places are listed first visited first, even when two visits share a millisecond")
    func itineraryIsFirstVisitedFirst() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        _ = try store.visit(Photo.photo(1, title: "Lake", place: "Zurich, Switzerland"), now: 5_000)
        _ = try store.visit(Photo.photo(2, title: "Agora", place: "Athens, Greece"), now: 5_000)
        _ = try store.visit(Photo.photo(3, title: "Old town", place: "Zurich, Switzerland"), now: 9_000)
        _ = try store.visit(Photo.photo(4, title: "Bridge", place: "Budapest, Hungary"), now: 7_000)
        let places = try store.itinerary()
        #expect(places.map(\.name) == ["Zurich, Switzerland", "Athens, Greece", "Budapest, Hungary"])
        #expect(places.map(\.photoCount) == [2, 1, 1])
        #expect(places[0].firstVisited == 5_000)
        #expect(places[1].firstVisited == 5_001, "strictly after Zurich, though visited in the same millisecond")
        #expect(places[2].firstVisited == 7_000)
    }

    @Test("tags are counted once per photo, most often seen first, ties by name, machine tags left out")
    func tagRules() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        _ = try store.visit(Photo.photo(1, tags: "dog beach sunset beach geo:lat=42 BEACH"), now: 1)
        _ = try store.visit(Photo.photo(2, tags: "sunset zebra  machine:tag=1"), now: 2)
        _ = try store.visit(Photo.photo(3, tags: "cat sunset beach"), now: 3)
        _ = try store.visit(Photo.photo(4, tags: ""), now: 4)
        _ = try store.visit(Photo.photo(5, tags: "geo:lon=1 a:b"), now: 5)
        let tags = try store.tags()
        #expect(tags.map(\.name) == ["sunset", "beach", "cat", "dog", "zebra"])
        #expect(tags.map(\.count) == [3, 2, 1, 1, 1])
        #expect(tags.map(\.displayName) == ["Sunset", "Beach", "Cat", "Dog", "Zebra"])
    }

    @Test("a tag is shown with its first letter capitalized and the rest in lower case")
    func tagDisplay() {
        #expect(VacationTag.display("beach") == "Beach")
        #expect(VacationTag.display("newyork") == "Newyork")
        #expect(VacationTag.display("élan") == "Élan")
        #expect(VacationTag.display("") == "")
        #expect(VacationTag.parse("Foo foo FOO bar:baz  qux\tquux") == ["foo", "qux", "quux"])
    }

    @Test("search keeps the tags containing the text in any case, still most often seen first")
    func tagSearch() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        _ = try store.visit(Photo.photo(1, tags: "sunset sunrise beach"), now: 1)
        _ = try store.visit(Photo.photo(2, tags: "sunrise"), now: 2)
        #expect(try store.tags(search: "SUN").map(\.name) == ["sunrise", "sunset"])
        #expect(try store.tags(search: "ea").map(\.name) == ["beach"])
        #expect(try store.tags(search: "zzz").isEmpty)
        #expect(try store.tags(search: "").count == 3)
    }

    @Test("unvisiting lowers the counts and removes tags and places left without photos")
    func unvisitCleansUp() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        _ = try store.visit(Photo.photo(1, place: "Paris, France", tags: "tower night"), now: 1_000)
        _ = try store.visit(Photo.photo(2, place: "Paris, France", tags: "night"), now: 2_000)
        _ = try store.visit(Photo.photo(3, place: "Rome, Italy", tags: "night forum"), now: 3_000)
        try store.unvisit(photoID: 1, preferredOrigin: nil)
        #expect(try store.tags().map { "\($0.name)=\($0.count)" } == ["night=2", "forum=1"])
        #expect(try store.itinerary().map { "\($0.name)=\($0.photoCount)" } == ["Paris, France=1", "Rome, Italy=1"])
        try store.unvisit(photoID: 2, preferredOrigin: nil)
        #expect(try store.itinerary().map(\.name) == ["Rome, Italy"])
        #expect(try store.tags().map { "\($0.name)=\($0.count)" } == ["forum=1", "night=1"])
        let summary = try store.summary()
        #expect((summary.photos, summary.places, summary.tags) == (1, 1, 2))
        #expect(throws: VacationError.self) { try store.unvisit(photoID: 2, preferredOrigin: nil) }
    }

    @Test("re-visiting a place that had left the itinerary gives it a new first-visited time at the end")
    func revisitingAPlaceMovesItToTheEnd() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        _ = try store.visit(Photo.photo(1, place: "Paris, France"), now: 1_000)
        _ = try store.visit(Photo.photo(2, place: "Rome, Italy"), now: 2_000)
        try store.unvisit(photoID: 1, preferredOrigin: nil)
        _ = try store.visit(Photo.photo(1, place: "Paris, France"), now: 1_500)
        let places = try store.itinerary()
        #expect(places.map(\.name) == ["Rome, Italy", "Paris, France"])
        #expect(places[1].firstVisited > places[0].firstVisited)
    }

    @Test("visiting a photo twice changes nothing")
    func visitingTwiceIsANoOp() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        #expect(try store.visit(Photo.photo(7, title: "Dune", place: "Sahara", tags: "sand"), now: 1) == .added(newPlace: true))
        #expect(try store.visit(Photo.photo(7, title: "Changed", place: "Elsewhere", tags: "other"), now: 2) == .alreadyVisited)
        #expect(try store.visit(Photo.photo(8, place: "Sahara"), now: 3) == .added(newPlace: false))
        #expect(try store.tags().map(\.name) == ["sand"])
        #expect(try store.itinerary().map { "\($0.name)=\($0.photoCount)=\($0.firstVisited)" } == ["Sahara=2=1"])
        #expect(try store.contains(origin: "127.0.0.1:7443", photoID: 7))
        #expect(try !store.contains(origin: "example.org:7443", photoID: 7))
    }

    @Test("photo lists are sorted by title ignoring case, with Unknown for a missing title and place")
    func photoListsAreSortedByTitle() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        for (id, title) in [(1, "banana"), (2, ""), (3, "Apple"), (4, "cherry"), (5, "apple")] {
            _ = try store.visit(Photo.photo(UInt64(id), title: title, place: "Market", tags: "fruit"), now: Int64(id))
        }
        _ = try store.visit(Photo.photo(6, title: "Nowhere", tags: "fruit"), now: 6)
        let atMarket = try store.photos(atPlace: "market")
        #expect(atMarket.place.name == "Market")
        #expect(atMarket.photos.map(\.displayTitle) == ["Apple", "apple", "banana", "cherry", "Unknown"])
        let tagged = try store.photos(taggedWith: "FRUIT")
        #expect(tagged.photos.map(\.photoID) == [3, 5, 1, 4, 6, 2])
        #expect(tagged.photos.first { $0.photoID == 6 }?.place == VacationPlace.unknown)
        #expect(try store.itinerary().map(\.name) == ["Market", "Unknown place"])
    }

    @Test("an unknown place or tag, or a machine tag, is a clear not-found")
    func unknownPlacesAndTags() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        _ = try store.visit(Photo.photo(1, place: "Oslo", tags: "fjord geo:lat=1"), now: 1)
        for body in [
            { _ = try store.photos(atPlace: "Bergen") }, { _ = try store.photos(taggedWith: "geo:lat=1") },
            { _ = try store.photos(taggedWith: "glacier") },
        ] as [() throws -> Void] {
            do {
                try body()
                Issue.record("found something that is not there")
            } catch let error as VacationError {
                #expect(error.kind == .notFound)
            }
        }
        do { _ = try store.photos(taggedWith: "geo:lat=1") } catch {
            #expect(error.message.contains("machine tags"))
        }
    }

    @Test("a visited photo's image comes back from the file, and a damaged one is refused")
    func imagesRoundTripAndAreChecked() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        _ = try store.visit(Photo.photo(9, title: "Pixel"), now: 1)
        let (photo, image) = try store.image(photoID: 9, preferredOrigin: nil)
        #expect(photo.displayTitle == "Pixel")
        #expect(image == VacationTestSupport.png)
        #expect(try store.image(photoID: 9, preferredOrigin: nil, thumbnail: true).image == Array(VacationTestSupport.png.prefix(24)))
        let raw = try SQLiteDatabase(path: store.path, create: false, configuresJournal: false)
        try raw.execute("UPDATE photo_images SET image = x'00'")
        do {
            _ = try store.image(photoID: 9, preferredOrigin: nil)
            Issue.record("a damaged image was returned")
        } catch {
            #expect(error.kind == .damaged)
        }
    }

    @Test("photos of the same id from two servers are told apart by the server in use")
    func photosFromTwoServers() throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let store = try library.open(nil)
        _ = try store.visit(Photo.photo(3, title: "From A", origin: "a.example:7443"), now: 1)
        _ = try store.visit(Photo.photo(3, title: "From B", origin: "b.example:7443"), now: 2)
        #expect(try store.image(photoID: 3, preferredOrigin: "b.example:7443").photo.title == "From B")
        #expect(throws: VacationError.self) { _ = try store.image(photoID: 3, preferredOrigin: "c.example:7443") }
        try store.unvisit(photoID: 3, preferredOrigin: "a.example:7443")
        #expect(try store.allPhotos().map(\.title) == ["From B"])
    }

    @Test("two connections visiting into one vacation at once lose nothing")
    func concurrentConnectionsLoseNothing() async throws {
        let (library, home) = VacationTestSupport.library()
        defer { _ = home }
        let path = try library.open(nil).path
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<2 {
                group.addTask {
                    let store = try VacationStore(name: VacationName.defaultName, path: path)
                    for index in 0..<40 {
                        let id = UInt64(worker * 1000 + index)
                        _ = try store.visit(
                            VacationTestSupport.photo(id, place: "Place \(index % 5)", tags: "w\(worker) common"), now: Int64(index))
                    }
                }
            }
            try await group.waitForAll()
        }
        let store = try VacationStore(name: VacationName.defaultName, path: path)
        #expect(try store.allPhotos().count == 80)
        #expect(try store.tags().map { "\($0.name)=\($0.count)" } == ["common=80", "w0=40", "w1=40"])
        #expect(try store.itinerary().count == 5)
    }
}
