import Foundation
import Imaging
import Wire

/// Photos from the Flickr REST API (`--photos flickr`): `flickr.photos.search` by latitude,
/// longitude and radius, public safe photos only, and the medium-size image of each.
///
/// What can go wrong, and what the album then says (a `ProviderError`):
/// - `stat: fail` answers (HTTP 200): 100 invalid key → `.invalidKey`; 10 and 105 →
///   `.unavailable`; 20 "Excessive photo offset" → `.pageOutOfRange`; any other → `.api(code)`;
///   the message carries Flickr's own words and code.
/// - HTTP 5xx → `.unavailable`; other non-2xx, a body that is not the JSON expected, or an
///   image that is not PNG/JPEG → `.badResponse`; no answer within the timeout, or a broken
///   connection → `.transport`.
/// - A page past the first 4,000 results is refused without asking (Flickr serves no more).
///
/// The API key travels only in the query string of search requests; no message, error or log
/// line built here contains it.
struct FlickrPhotoProvider: PhotoProvider {
    package let name = "flickr"

    /// A search answer larger than this is not a search answer (250 photos take ~250 KB).
    static let maximumResponseBytes = 4 * 1024 * 1024
    /// Where images live when a result lacks `url_m`: `{host}/{server}/{id}_{secret}.jpg`.
    static let defaultImageHost = URL(string: "https://live.staticflickr.com")!

    let endpoint: URL
    let searchRadiusKilometres: Double
    package let maxImageBytes: Int
    let imageHost: URL
    private let apiKey: String
    private let fetcher: HTTPFetcher

    /// A provider for `endpoint` with the given key. `imageHost` is for tests whose fake
    /// server also serves the images.
    init(
        apiKey: String, endpoint: URL = PhotoSource.defaultFlickrEndpoint, searchRadiusKilometres: Double = 5,
        timeoutSeconds: Double = 15, maxImageBytes: Int = 5 * 1024 * 1024, imageHost: URL = FlickrPhotoProvider.defaultImageHost
    ) {
        self.apiKey = apiKey
        self.endpoint = endpoint
        // Flickr refuses a radius of 32 km or more.
        self.searchRadiusKilometres = min(31.9, max(0.1, searchRadiusKilometres))
        self.maxImageBytes = maxImageBytes
        self.imageHost = imageHost
        fetcher = HTTPFetcher(timeoutSeconds: max(0.1, timeoutSeconds))
    }

    // MARK: Search

    /// One page of `flickr.photos.search` around the point. `perPage` is clamped to 1...250
    /// and a page below 1 reads as 1; a point that is not finite has no photos.
    package func search(latitude: Double, longitude: Double, page: Int, perPage: Int) async throws(ProviderError) -> PhotoSearchPage {
        let (page, perPage) = PhotoSearchPage.clamped(page: page, perPage: perPage)
        guard latitude.isFinite, longitude.isFinite else {
            return PhotoSearchPage(page: page, pages: 0, perPage: perPage, total: 0, photos: [])
        }
        try PhotoSearchPage.checkWithinResultCap(page: page, perPage: perPage, source: "Flickr")
        let latitude = GreatCircle.clampedLatitude(latitude)
        let longitude = GreatCircle.normalizedLongitude(longitude)
        let url = searchURL(latitude: latitude, longitude: longitude, page: page, perPage: perPage)
        let response = try await get(url, maxBytes: Self.maximumResponseBytes, what: "search")
        guard (200..<300).contains(response.status) else { throw statusError(response.status, what: "search") }
        let answer = try FlickrResponse.parse(response.body)
        if answer.stat == "fail" { throw apiError(code: answer.code?.value, message: answer.message) }
        guard answer.stat == "ok", let photos = answer.photos else {
            throw ProviderError(.badResponse, "Flickr's search answer has no photos and no error")
        }
        let results = (photos.photo ?? []).prefix(500).compactMap { photo(from: $0, latitude: latitude, longitude: longitude) }
        let total = max(0, photos.total?.value ?? results.count)
        let answeredPerPage = photos.perpage?.value ?? perPage
        let pages = max(0, photos.pages?.value ?? (answeredPerPage > 0 ? (total + answeredPerPage - 1) / answeredPerPage : 0))
        // Past its limit Flickr sometimes serves page 1 again instead of failing; the page it
        // names is reported as is, so the caller sees what it got.
        return PhotoSearchPage(
            page: max(1, photos.page?.value ?? page), pages: pages, perPage: max(1, answeredPerPage), total: total, photos: results)
    }

    /// The search URL, with the key. Never log it.
    func searchURL(latitude: Double, longitude: Double, page: Int, perPage: Int) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "method", value: "flickr.photos.search"),
            URLQueryItem(name: "api_key", value: apiKey),
            URLQueryItem(name: "lat", value: String(format: "%.6f", latitude)),
            URLQueryItem(name: "lon", value: String(format: "%.6f", longitude)),
            URLQueryItem(name: "radius", value: Self.decimal(searchRadiusKilometres)),
            URLQueryItem(name: "radius_units", value: "km"),
            URLQueryItem(name: "per_page", value: String(perPage)),
            URLQueryItem(name: "page", value: String(page)),
            URLQueryItem(name: "extras", value: "url_m,url_q,tags,geo,date_taken,owner_name"),
            URLQueryItem(name: "safe_search", value: "1"),
            URLQueryItem(name: "content_type", value: "1"),
            URLQueryItem(name: "media", value: "photos"),
            URLQueryItem(name: "format", value: "json"),
            URLQueryItem(name: "nojsoncallback", value: "1"),
        ]
        return components.url!
    }

    /// A search result as a `ProviderPhoto`, or nil when it cannot be fetched (no usable id, no
    /// image URL and no parts to build one from).
    private func photo(from result: FlickrResponse.Photo, latitude: Double, longitude: Double) -> ProviderPhoto? {
        guard let id = result.id?.value, Self.isToken(id) else { return nil }
        let reference: String
        if let medium = result.urlM, let url = URL(string: medium), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        {
            reference = medium
        } else if let server = result.server?.value, Self.isToken(server), let secret = result.secret?.value, Self.isToken(secret) {
            // The 500-pixel size has no suffix (Flickr's URL rules).
            reference = imageHost.appendingPathComponent(server).appendingPathComponent("\(id)_\(secret).jpg").absoluteString
        } else {
            return nil
        }
        var photoLatitude = latitude
        var photoLongitude = longitude
        // Photos without a public location come back with 0, 0; keep the searched point then.
        if let lat = result.latitude?.value, let lon = result.longitude?.value, MapLimits.latitude.contains(lat),
            MapLimits.longitude.contains(lon),
            lat != 0 || lon != 0
        {
            photoLatitude = lat
            photoLongitude = GreatCircle.normalizedLongitude(lon)
        }
        let title = String((result.title?.value ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(500))
        let tags = (result.tags?.value ?? "").lowercased().split(whereSeparator: \.isWhitespace).prefix(200).joined(separator: " ")
        return ProviderPhoto(
            id: id, title: title, tags: tags, place: "", latitude: photoLatitude, longitude: photoLongitude, reference: reference)
    }

    // MARK: Images

    /// Downloads a photo's image: at most `maxImageBytes`, and it must be a PNG or JPEG. When
    /// the endpoint is https, so must the image be.
    package func fetchImage(_ photo: ProviderPhoto) async throws(ProviderError) -> [UInt8] {
        guard let url = URL(string: photo.reference), let scheme = url.scheme?.lowercased(), url.host != nil,
            scheme == "https" || (scheme == "http" && endpoint.scheme?.lowercased() == "http")
        else {
            throw ProviderError(.badResponse, "Flickr photo \(photo.id) has no usable image address")
        }
        let response = try await get(url, maxBytes: maxImageBytes, what: "image of photo \(photo.id)")
        guard (200..<300).contains(response.status) else { throw statusError(response.status, what: "image of photo \(photo.id)") }
        do {
            _ = try ImageHeader.parse(response.body)
        } catch {
            throw ProviderError(.badResponse, "the image of Flickr photo \(photo.id) is not a PNG or JPEG (\(error))")
        }
        return response.body
    }

    // MARK: Errors

    private func get(_ url: URL, maxBytes: Int, what: String) async throws(ProviderError) -> HTTPFetcher.Response {
        do {
            return try await fetcher.get(url, maxBytes: maxBytes)
        } catch {
            switch error {
            case .timedOut:
                throw ProviderError(.transport, "Flickr did not answer the \(what) within \(Self.decimal(fetcher.timeoutSeconds)) s")
            case .tooLarge:
                throw ProviderError(.badResponse, "Flickr's \(what) is larger than \(maxBytes) bytes")
            case .network(let reason):
                throw ProviderError(.transport, redacted("Flickr could not be reached for the \(what): \(reason)"))
            }
        }
    }

    private func statusError(_ status: Int, what: String) -> ProviderError {
        if (500..<600).contains(status) { return ProviderError(.unavailable, "Flickr is unavailable (HTTP \(status) for the \(what))") }
        return ProviderError(.badResponse, "Flickr answered the \(what) with HTTP \(status)")
    }

    private func apiError(code: Int?, message: String?) -> ProviderError {
        let words = redacted(String((message ?? "no message").prefix(300)))
        guard let code else { return ProviderError(.badResponse, "Flickr refused the search without an error code: \(words)") }
        let text = "Flickr: \(words) (error \(code))"
        switch code {
        case 100: return ProviderError(.invalidKey, text)
        case 10, 105: return ProviderError(.unavailable, text)
        case 20: return ProviderError(.pageOutOfRange, text)
        default: return ProviderError(.api(code: code), text)
        }
    }

    /// The text with the API key blotted out, should any service or library ever echo it.
    private func redacted(_ text: String) -> String {
        apiKey.isEmpty ? text : text.replacingOccurrences(of: apiKey, with: "[api key]")
    }

    /// Letters, digits, `@`, `-` and `_` only, as Flickr's ids, servers and secrets are.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "@-_".unicodeScalars.contains($0))
            }
    }

    /// `5` or `2.5`: no trailing zeros.
    private static func decimal(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
