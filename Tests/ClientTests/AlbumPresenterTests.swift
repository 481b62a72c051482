import Testing
import Wire

@testable import Client

@Suite struct AlbumPresenterTests {
    private func photo(_ id: UInt64, _ position: UInt32, _ state: PhotoState, title: String = "Lake", place: String = "near Ann Arbor")
        -> PhotoInfo
    {
        PhotoInfo(
            id: id, pinID: 3, position: position, state: state, title: title, tags: "lake sunset", place: place,
            latitude: 42.28, longitude: -83.74, width: 640, height: 480, byteCount: 1234)
    }

    @Test func albumJSONHasTheDocumentedKeys() {
        let album = Album(
            pinID: 3, state: .downloading, expected: 4, done: 1, error: "", photos: [photo(10, 0, .ready), photo(11, 1, .pending)])
        let json = AlbumPresenter.json(album)
        if case .object(let members) = json {
            #expect(members.map(\.key) == ["pin_id", "state", "expected", "done", "error", "photos"])
        } else {
            Issue.record("not an object")
        }
        #expect(json["state"] == "downloading")
        #expect(json["expected"] == 4)
        #expect(json["done"] == 1)
        guard case .array(let photos)? = json["photos"], case .object(let first) = photos[0] else {
            Issue.record("no photos array")
            return
        }
        #expect(Set(first.map(\.key)).isSuperset(of: ["id", "title", "place", "tags", "state", "latitude", "longitude"]))
        #expect(photos[0]["tags"] == .array(["lake", "sunset"]))
        #expect(photos[1]["state"] == "pending")
    }

    @Test func pinAndRandomJSONNameTheirParts() {
        let pin = PinInfo(id: 5, latitude: -33.87, longitude: 151.21, createdAt: 0, albumState: .empty, expected: 0, done: 0)
        let json = AlbumPresenter.json(pin)
        #expect(json["id"] == 5)
        #expect(json["latitude"] == .double(-33.87))
        #expect(json["longitude"] == .double(151.21))
        #expect(json["state"] == "empty")
        let none = AlbumPresenter.json(RandomPinResult(pin: nil, description: "", photo: nil))
        #expect(none["pin"] == .null && none["photo"] == .null && none["description"] == "")
        let some = AlbumPresenter.json(RandomPinResult(pin: pin, description: "near Sydney", photo: photo(1, 0, .ready)))
        #expect(some["pin"]?["id"] == 5)
        #expect(some["photo"]?["id"] == 1)
    }

    @Test func thereIsOnePlaceholderPerExpectedPhotoWhileDownloading() {
        let album = Album(
            pinID: 3, state: .downloading, expected: 5, done: 1, error: "", photos: [photo(10, 0, .ready), photo(11, 1, .failed)])
        #expect(AlbumPresenter.placeholderGrid(album, width: 80) == ["[■][✗][…][…][…]"])
        #expect(AlbumPresenter.placeholderGrid(album, width: 7) == ["[■][✗]", "[…][…]", "[…]"])
        let ready = Album(pinID: 3, state: .ready, expected: 5, done: 2, error: "", photos: [photo(11, 1, .ready), photo(10, 0, .ready)])
        #expect(AlbumPresenter.placeholderGrid(ready, width: 80) == ["[■][■]"], "a removed photo leaves no phantom slot")
    }

    @Test func aHugeExpectedCountFromTheServerIsBounded() {
        let album = Album(pinID: 3, state: .downloading, expected: .max, done: 0, error: "", photos: [])
        let cells = AlbumPresenter.placeholderGrid(album, width: 300).joined().count / 3
        #expect(cells == AlbumPresenter.maximumPlaceholders)
    }

    @Test func anEmptyAlbumSaysNoImages() {
        let text = AlbumPresenter.text(Album(pinID: 3, state: .empty, expected: 0, done: 0, error: "", photos: []), width: 80)
        #expect(text == "Album of pin 3: empty (No Images)\nNo Images\n")
    }

    @Test func aReadyAlbumListsPhotosInOrderWithTitleAndPlace() {
        let album = Album(
            pinID: 3, state: .ready, expected: 2, done: 2, error: "",
            photos: [photo(11, 1, .ready, title: "Second"), photo(10, 0, .ready, title: "First")])
        let lines = AlbumPresenter.text(album, width: 80).split(separator: "\n").map(String.init)
        #expect(lines[0] == "Album of pin 3: ready (2 photos)")
        #expect(lines[1] == "[■][■]")
        #expect(lines[2] == "Every photo is tagged: lake sunset")
        #expect(lines[3].hasPrefix("#  PHOTO  TITLE"))
        #expect(lines[4].contains("10") && lines[4].contains("First") && lines[4].contains("near Ann Arbor"))
        #expect(lines[5].contains("11") && lines[5].contains("Second"))
    }

    @Test func decimalsAreShortAndSigned() {
        #expect(AlbumPresenter.decimal(42.28) == "42.28")
        #expect(AlbumPresenter.decimal(-83.74) == "-83.74")
        #expect(AlbumPresenter.decimal(-0.5) == "-0.5")
        #expect(AlbumPresenter.decimal(180) == "180")
        #expect(AlbumPresenter.decimal(0.000001) == "0")
        #expect(AlbumPresenter.decimal(1.234567) == "1.23457")
        #expect(AlbumPresenter.decimal(.nan) == "?")
        #expect(AlbumPresenter.coordinates(-33.87, 151.21) == "-33.87, 151.21")
    }

    @Test func serverTextCannotDriveTheTerminal() {
        #expect(PrintableText.clean("a\u{1B}[2Jb\nc\u{9B}d") == "a?[2Jb?c?d")
        let caption = AlbumPresenter.caption(photo(1, 0, .ready, title: "\u{1B}]0;x\u{07}"))
        #expect(!caption.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func theTagsColumnShowsEachPhotosOwnTagsAndTheSharedOnesOnce() {
        func tagged(_ id: UInt64, _ tags: String) -> PhotoInfo {
            PhotoInfo(
                id: id, pinID: 3, position: UInt32(id), state: .ready, title: "T\(id)", tags: tags, place: "Ann Arbor",
                latitude: 42.28, longitude: -83.74, width: 640, height: 480, byteCount: 1234)
        }
        let photos = [
            tagged(1, "annarbor michigan unitedstates lake"), tagged(2, "annarbor michigan unitedstates cat sleepy"),
            tagged(3, "michigan annarbor unitedstates rocket"),
        ]
        #expect(AlbumPresenter.sharedTags(photos) == ["annarbor", "michigan", "unitedstates"])
        let text = AlbumPresenter.text(Album(pinID: 3, state: .ready, expected: 3, done: 3, error: "", photos: photos), width: 100)
        #expect(text.contains("Every photo is tagged: annarbor michigan unitedstates"))
        let rows = text.split(separator: "\n").filter { $0.contains("T2") }
        #expect(rows.first?.hasSuffix("cat sleepy") == true, "\(rows)")
    }
}
