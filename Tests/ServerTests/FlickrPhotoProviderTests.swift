import Foundation
import Imaging
import Posix
import TestSupport
import Testing

@testable import Server

@Suite("Flickr photo provider against a fake Flickr")
struct FlickrPhotoProviderTests {
    let annArbor = (latitude: 42.2808, longitude: -83.743)

    func provider(
        _ fake: FakeFlickrServer, key: String = FakeFlickrServer.validKey, timeout: Double = 15, maxImageBytes: Int = 5 << 20
    ) -> FlickrPhotoProvider {
        FlickrPhotoProvider(
            apiKey: key, endpoint: fake.endpoint, timeoutSeconds: timeout, maxImageBytes: maxImageBytes, imageHost: fake.imageHost)
    }

    /// The error a search throws, or nil when it succeeds.
    func searchError(_ provider: FlickrPhotoProvider, page: Int = 1, perPage: Int = 21) async -> ProviderError? {
        do {
            _ = try await provider.search(latitude: annArbor.latitude, longitude: annArbor.longitude, page: page, perPage: perPage)
            return nil
        } catch {
            return error
        }
    }

    @Test("a search sends Flickr's documented parameters and reads the page of photos")
    func success() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 100))
        defer { fake.stop() }
        let page = try await provider(fake).search(latitude: annArbor.latitude, longitude: annArbor.longitude, page: 2, perPage: 21)
        #expect(page.page == 2)
        #expect(page.pages == 5)
        #expect(page.perPage == 21)
        #expect(page.total == 100)
        #expect(page.photos.count == 21)
        let first = try #require(page.photos.first)
        #expect(first.id == "52000000021")
        #expect(first.title == "Fake photo 21")
        #expect(first.tags == "fake test subject1 uploaded:by=fakeflickr")
        #expect(first.place.isEmpty)
        #expect(abs(first.latitude - (42.2808 + 0.001)) < 1e-9)
        #expect(first.reference.hasPrefix("http://127.0.0.1:\(fake.port)/65535/52000000021_"))

        let request = try #require(fake.searchRequests.last)
        #expect(request.query["method"] == "flickr.photos.search")
        #expect(request.query["api_key"] == FakeFlickrServer.validKey)
        #expect(request.query["lat"] == "42.280800")
        #expect(request.query["lon"] == "-83.743000")
        #expect(request.query["radius"] == "5")
        #expect(request.query["radius_units"] == "km")
        #expect(request.query["per_page"] == "21")
        #expect(request.query["page"] == "2")
        #expect(request.query["extras"] == "url_m,url_q,tags,geo,date_taken,owner_name")
        #expect(request.query["safe_search"] == "1")
        #expect(request.query["content_type"] == "1")
        #expect(request.query["media"] == "photos")
        #expect(request.query["format"] == "json")
        #expect(request.query["nojsoncallback"] == "1")
    }

    @Test("a photo's image is downloaded and checked to be a JPEG or PNG")
    func images() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 3))
        defer { fake.stop() }
        let flickr = provider(fake)
        let photo = try #require(try await flickr.search(latitude: 1, longitude: 2, page: 1, perPage: 10).photos.first)
        let jpeg = try await flickr.fetchImage(photo)
        #expect(try ImageHeader.parse(jpeg) == ImageHeader(format: .jpeg, width: 64, height: 48))
        fake.imageBehaviour = .png
        #expect(try ImageHeader.parse(try await flickr.fetchImage(photo)).format == .png)
        // The image request carries no API key.
        #expect(fake.requests.filter { $0.path.hasPrefix("/65535/") }.allSatisfy { $0.query.isEmpty })
    }

    @Test("an image that is not an image, missing, or over the size limit is refused")
    func badImages() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 3))
        defer { fake.stop() }
        let flickr = provider(fake)
        let photo = try #require(try await flickr.search(latitude: 1, longitude: 2, page: 1, perPage: 10).photos.first)
        for behaviour in [FakeFlickrServer.ImageBehaviour.notAnImage, .missing] {
            fake.imageBehaviour = behaviour
            await #expect(throws: ProviderError.self) { try await flickr.fetchImage(photo) }
        }
        fake.imageBehaviour = .jpeg
        do {
            _ = try await provider(fake, maxImageBytes: 100).fetchImage(photo)
            Issue.record("an image over the limit should be refused")
        } catch {
            #expect(error.kind == .badResponse)
            #expect(error.message.contains("larger than 100 bytes"))
        }
        let nowhere = ProviderPhoto(id: "1", title: "", tags: "", place: "", latitude: 0, longitude: 0, reference: "file:///etc/passwd")
        await #expect(throws: ProviderError(.badResponse, "Flickr photo 1 has no usable image address")) {
            try await flickr.fetchImage(nowhere)
        }
    }

    @Test("no photos near the point is an empty page with zero pages")
    func empty() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 0))
        defer { fake.stop() }
        let page = try await provider(fake).search(latitude: -48.9, longitude: -123.4, page: 1, perPage: 21)
        #expect(page.total == 0)
        #expect(page.pages == 0)
        #expect(page.photos.isEmpty)
    }

    @Test("a bad API key fails as an invalid key with Flickr's message, and the key is never in it")
    func badKey() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 100))
        defer { fake.stop() }
        let wrongKey = "ffffffffffffffffffffffffffffffff"
        let error = try #require(await searchError(provider(fake, key: wrongKey)))
        #expect(error.kind == .invalidKey)
        #expect(error.message == "Flickr: Invalid API Key (Key has invalid format) (error 100)")
        #expect(!error.message.contains(wrongKey))
    }

    @Test("Flickr's error codes map to unavailable, page out of range, or an API error with the code")
    func errorCodes() async throws {
        let fake = try FakeFlickrServer(behaviour: .failure(code: 105, message: "Service currently unavailable"))
        defer { fake.stop() }
        let flickr = provider(fake)
        let cases: [(Int, String, ProviderError.Kind)] = [
            (105, "Service currently unavailable", .unavailable),
            (10, "Sorry, the Flickr search API is not currently available.", .unavailable),
            (20, "Excessive photo offset in search", .pageOutOfRange),
            (100, "Invalid API Key (Key has expired)", .invalidKey),
            (3, "Parameterless searches have been disabled", .api(code: 3)),
        ]
        for (code, message, kind) in cases {
            fake.behaviour = .failure(code: code, message: message)
            let error = try #require(await searchError(flickr))
            #expect(error.kind == kind)
            #expect(error.message == "Flickr: \(message) (error \(code))")
        }
    }

    @Test("a page past the first 4,000 results is refused without asking Flickr")
    func pageCapIsLocal() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 10_000))
        defer { fake.stop() }
        let flickr = provider(fake)
        let lastUseful = try await flickr.search(latitude: 1, longitude: 2, page: 190, perPage: 21)
        #expect(lastUseful.photos.count == 21)
        let asked = fake.searchRequests.count
        let error = try #require(await searchError(flickr, page: 191, perPage: 21))
        #expect(error.kind == .pageOutOfRange)
        #expect(fake.searchRequests.count == asked)
        // Page sizes over Flickr's geo limit are clamped before asking.
        _ = try await flickr.search(latitude: 1, longitude: 2, page: 1, perPage: 1_000)
        #expect(fake.searchRequests.last?.query["per_page"] == "250")
    }

    @Test("past Flickr's own offset limit, error 20 and a silent first page are both handled")
    func overCap() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 10_000))
        defer { fake.stop() }
        fake.resultCap = 40
        let flickr = provider(fake)
        let error = try #require(await searchError(flickr, page: 3, perPage: 21))
        #expect(error.kind == .pageOutOfRange)
        #expect(error.message == "Flickr: Excessive photo offset in search (error 20)")
        fake.overCap = .firstPage
        let page = try await flickr.search(latitude: 1, longitude: 2, page: 3, perPage: 21)
        #expect(page.page == 1)
        #expect(page.photos.first?.id == "52000000000")
    }

    @Test("a JSONP body is read like plain JSON")
    func jsonp() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 30))
        defer { fake.stop() }
        fake.forceJSONP = true
        let page = try await provider(fake).search(latitude: 1, longitude: 2, page: 1, perPage: 21)
        #expect(page.total == 30)
        #expect(page.photos.count == 21)
    }

    @Test("numbers sent as strings decode the same as numbers")
    func numbersAsStrings() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 30))
        defer { fake.stop() }
        let flickr = provider(fake)
        let asNumbers = try await flickr.search(latitude: 1, longitude: 2, page: 2, perPage: 21)
        fake.numbersAsStrings = true
        let asStrings = try await flickr.search(latitude: 1, longitude: 2, page: 2, perPage: 21)
        #expect(asStrings == asNumbers)
        #expect(asStrings.pages == 2 && asStrings.total == 30 && asStrings.photos.count == 9)
        #expect(abs(asStrings.photos[0].latitude - 1.001) < 1e-9)
    }

    @Test("results without url_m get an image URL built from server, id and secret; missing titles and tags are empty")
    func sparseResults() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 5))
        defer { fake.stop() }
        fake.omitMediumURLs = true
        fake.omitTitlesAndTags = true
        let flickr = provider(fake)
        let photo = try #require(try await flickr.search(latitude: 1, longitude: 2, page: 1, perPage: 10).photos.first)
        #expect(photo.title.isEmpty)
        #expect(photo.tags.isEmpty)
        #expect(photo.reference == "http://127.0.0.1:\(fake.port)/65535/52000000000_\(String(format: "%010x", 12345)).jpg")
        #expect(try ImageHeader.parse(try await flickr.fetchImage(photo)).format == .jpeg)
    }

    @Test("a server that never answers times out as a transport error")
    func slow() async throws {
        let fake = try FakeFlickrServer(behaviour: .slow)
        defer { fake.stop() }
        let error = try #require(await searchError(provider(fake, timeout: 0.5)))
        #expect(error.kind == .transport)
        #expect(error.message == "Flickr did not answer the search within 0.5 s")
    }

    @Test("broken answers fail clearly: HTTP 500, HTTP 404, not JSON, cut short, nobody listening")
    func broken() async throws {
        let fake = try FakeFlickrServer(behaviour: .httpStatus(500))
        let flickr = provider(fake)
        #expect(await searchError(flickr) == ProviderError(.unavailable, "Flickr is unavailable (HTTP 500 for the search)"))
        fake.behaviour = .httpStatus(404)
        #expect(await searchError(flickr) == ProviderError(.badResponse, "Flickr answered the search with HTTP 404"))
        fake.behaviour = .invalidJSON
        #expect(await searchError(flickr)?.kind == .badResponse)
        fake.behaviour = .truncatedBody
        let truncated = try #require(await searchError(flickr))
        #expect(truncated.kind == .transport || truncated.kind == .badResponse)
        // Returns once the listener is closed: nobody answers from then on.
        fake.stop()
        let refused = try #require(await searchError(flickr))
        #expect(refused.kind == .transport)
        for error in [truncated, refused] { #expect(!error.message.contains(FakeFlickrServer.validKey)) }
    }

    @Test("a point that is not finite has no photos and asks nothing")
    func notFinite() async throws {
        let fake = try FakeFlickrServer(behaviour: .photos(total: 5))
        defer { fake.stop() }
        let page = try await provider(fake).search(latitude: .nan, longitude: 0, page: 1, perPage: 10)
        #expect(page.photos.isEmpty && page.total == 0)
        #expect(fake.searchRequests.isEmpty)
    }

    @Test("an https endpoint never downloads images over plain http")
    func httpsOnly() async throws {
        let flickr = FlickrPhotoProvider(apiKey: FakeFlickrServer.validKey)
        let photo = ProviderPhoto(
            id: "7", title: "", tags: "", place: "", latitude: 0, longitude: 0, reference: "http://127.0.0.1:9/65535/7_ab.jpg")
        await #expect(throws: ProviderError(.badResponse, "Flickr photo 7 has no usable image address")) {
            try await flickr.fetchImage(photo)
        }
    }
}
