/// Where album photos come from: the built-in offline pool, Flickr, or a folder of the
/// instructor's photos (`--photos builtin|flickr|dir:PATH`).
public protocol PhotoProvider: Sendable {
    /// A short name for logs and errors, e.g. `builtin`, `flickr`.
    var name: String { get }
    /// One page of photos near a point, like `flickr.photos.search` by lat/lon and radius.
    /// `page` is 1-based. Deterministic for a given location and page where the source allows.
    func search(latitude: Double, longitude: Double, page: Int, perPage: Int) async throws(ProviderError) -> PhotoSearchPage
    /// The image bytes (PNG or JPEG) of one photo of a search result.
    func fetchImage(_ photo: ProviderPhoto) async throws(ProviderError) -> [UInt8]
}

/// One page of search results.
public struct PhotoSearchPage: Sendable, Equatable {
    public var page: Int
    /// Total pages the provider reports (0 when there are no results).
    public var pages: Int
    public var perPage: Int
    public var total: Int
    public var photos: [ProviderPhoto]

    public init(page: Int, pages: Int, perPage: Int, total: Int, photos: [ProviderPhoto]) {
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.total = total
        self.photos = photos
    }

    /// The most photos one page may hold (Flickr's limit for geo searches; every source keeps it).
    public static let maximumPerPage = 250
    /// Only this many results of one search are served (Flickr's rule; every source keeps it).
    public static let resultCap = 4000

    /// The highest page worth asking for: providers return at most `resultCap` results per search.
    public static func maximumUsefulPage(pages: Int, perPage: Int) -> Int {
        guard pages > 0, perPage > 0 else { return 0 }
        return max(1, min(pages, resultCap / perPage))
    }

    /// A request's page and page size as every source reads them: at least 1, and at most
    /// `maximumPerPage` photos per page.
    public static func clamped(page: Int, perPage: Int) -> (page: Int, perPage: Int) {
        (max(1, page), min(maximumPerPage, max(1, perPage)))
    }

    /// Fails with `.pageOutOfRange` for a page past the first `resultCap` results.
    public static func checkWithinResultCap(page: Int, perPage: Int, source: String) throws(ProviderError) {
        guard page <= resultCap / perPage else {
            throw ProviderError(
                .pageOutOfRange, "page \(page) of \(perPage) photos is past the first \(resultCap) results \(source) serves")
        }
    }
}

/// A photo as a provider describes it, before its bytes are fetched.
public struct ProviderPhoto: Sendable, Equatable {
    /// The provider's id, unique within the provider.
    public var id: String
    public var title: String
    /// Space-separated lower-case tags, as Flickr gives them.
    public var tags: String
    /// A place name when the provider knows one; empty otherwise (the server then names the
    /// place from the gazetteer).
    public var place: String
    public var latitude: Double
    public var longitude: Double
    /// Where the bytes are: a URL for Flickr, a file or pool entry for the others.
    public var reference: String

    public init(id: String, title: String, tags: String, place: String, latitude: Double, longitude: Double, reference: String) {
        self.id = id
        self.title = title
        self.tags = tags
        self.place = place
        self.latitude = latitude
        self.longitude = longitude
        self.reference = reference
    }
}

/// Why a provider could not deliver, worded for the user (an album's `failed` state shows it).
public struct ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Flickr error 100: invalid or expired API key.
        case invalidKey
        /// The service said it is unavailable (Flickr 10, 105) or answered HTTP 5xx.
        case unavailable
        /// Flickr error 20 ("Excessive photo offset"): the page is past what search serves.
        case pageOutOfRange
        /// Any other `stat: fail` answer.
        case api(code: Int)
        /// The network failed or timed out.
        case transport
        /// The answer could not be understood (not JSON, wrong shape, not an image).
        case badResponse
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
