import Testing
import Wire

@testable import Server

@Suite("Album download plan")
struct AlbumDownloadTests {
    static func pin(_ id: Int64 = 5, albumState: AlbumState = .downloading) -> PinRecord {
        PinRecord(id: id, userID: 1, latitude: 42.28, longitude: -83.74, createdAt: 1, albumState: albumState, expected: 0, done: 0)
    }

    static func photo(_ id: Int64, state: PhotoState = .pending) -> PhotoRecord {
        PhotoRecord(
            id: id, pinID: 5, position: Int(id), state: state,
            source: ProviderPhoto(id: "p\(id)", title: "", tags: "", place: "", latitude: 0, longitude: 0, reference: "r\(id)"),
            width: 0, height: 0, byteCount: 0, error: "")
    }

    static func album(
        searched: Bool, photos: [PhotoRecord] = [], state: AlbumState = .downloading,
        provider: String = "builtin"
    ) -> AlbumRecord {
        AlbumRecord(
            pin: pin(albumState: state), error: "", provider: provider, searched: searched, page: 3, pages: 9, perPage: 21,
            total: 180, generation: 2, photos: photos)
    }

    @Test("an album not yet searched is searched first, at its page, for its generation")
    func unsearchedAlbumIsSearched() {
        var download = AlbumDownload(provider: "builtin", maximumInFlight: 4)
        let actions = download.loaded(Self.album(searched: false))
        #expect(actions == [.search(.init(pinID: 5, generation: 2, latitude: 42.28, longitude: -83.74, page: 3, perPage: 21))])
        #expect(!download.isFinished)
    }

    @Test("pending slots are fetched at most four at a time, the rest as earlier ones finish")
    func fetchesAreBounded() {
        var download = AlbumDownload(provider: "builtin", maximumInFlight: 4)
        let photos = (1...6).map { Self.photo($0) } + [Self.photo(7, state: .ready)]
        let first = download.loaded(Self.album(searched: true, photos: photos))
        #expect(first == (1...4).map { .fetch(Self.photo($0)) })
        #expect(download.fetched(Self.photo(2)) == [.fetch(Self.photo(5))])
        #expect(download.fetched(Self.photo(1)) == [.fetch(Self.photo(6))])
        #expect(download.fetched(Self.photo(3)).isEmpty)
        #expect(download.fetched(Self.photo(4)).isEmpty)
        #expect(download.fetched(Self.photo(5)).isEmpty)
        #expect(download.fetched(Self.photo(6)) == [.complete(pinID: 5)])
        #expect(download.isFinished && !download.hasFetchesInFlight)
    }

    @Test("an album with nothing pending is completed at once")
    func nothingPendingCompletes() {
        var download = AlbumDownload(provider: "builtin", maximumInFlight: 4)
        #expect(download.loaded(Self.album(searched: true, photos: [Self.photo(1, state: .failed)])) == [.complete(pinID: 5)])
    }

    @Test("a pin that is gone or an album no longer downloading ends the download without a step")
    func finishedAlbumsStop() {
        var gone = AlbumDownload(provider: "builtin", maximumInFlight: 4)
        #expect(gone.loaded(nil).isEmpty && gone.isFinished)
        var ready = AlbumDownload(provider: "builtin", maximumInFlight: 4)
        #expect(ready.loaded(Self.album(searched: true, state: .ready)).isEmpty && ready.isFinished)
    }

    @Test("an album from another photo source fails with a message saying what to do")
    func changedProviderFails() {
        var download = AlbumDownload(provider: "builtin", maximumInFlight: 4)
        let actions = download.loaded(Self.album(searched: true, photos: [Self.photo(1)], provider: "flickr"))
        guard case .fail(5, 2, let message)? = actions.first, actions.count == 1 else {
            Issue.record("expected one fail action, got \(actions)")
            return
        }
        #expect(message.contains("flickr") && message.contains("builtin") && message.contains("New Collection"))
        #expect(download.isFinished)
    }

    @Test("a failed search fails the album with the provider's message")
    func failedSearchFails() {
        var download = AlbumDownload(provider: "builtin", maximumInFlight: 4)
        guard case .search(let request)? = download.loaded(Self.album(searched: false)).first else {
            Issue.record("expected a search")
            return
        }
        #expect(download.searchFailed(request, message: "Invalid API Key") == [.fail(pinID: 5, generation: 2, message: "Invalid API Key")])
    }

    @Test("a search whose answer was not recorded is not repeated")
    func searchIsNotRepeated() {
        var download = AlbumDownload(provider: "builtin", maximumInFlight: 4)
        _ = download.loaded(Self.album(searched: false))
        #expect(download.loaded(Self.album(searched: false)).isEmpty)
        #expect(download.isFinished)
    }
}
