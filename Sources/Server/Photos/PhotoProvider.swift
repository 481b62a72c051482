/// Where album photos come from: the built-in offline pool, Flickr, or a folder of the
/// instructor's photos (`--photos builtin|flickr|dir:PATH`).
package protocol PhotoProvider: Sendable {
    /// A short name for logs and errors, e.g. `builtin`, `flickr`.
    var name: String { get }
    /// One page of photos near a point, like `flickr.photos.search` by lat/lon and radius.
    /// `page` is 1-based. Deterministic for a given location and page where the source allows.
    func search(latitude: Double, longitude: Double, page: Int, perPage: Int) async throws(ProviderError) -> PhotoSearchPage
    /// The image bytes (PNG or JPEG) of one photo of a search result.
    func fetchImage(_ photo: ProviderPhoto) async throws(ProviderError) -> [UInt8]
}

/// One page of search results.
package struct PhotoSearchPage: Sendable, Equatable {
    var page: Int
    /// Total pages the provider reports (0 when there are no results).
    var pages: Int
    var perPage: Int
    var total: Int
    var photos: [ProviderPhoto]

    /// The most photos one page may hold (Flickr's limit for geo searches; every source keeps it).
    static let maximumPerPage = 250
    /// Only this many results of one search are served (Flickr's rule; every source keeps it).
    static let resultCap = 4000

    /// The highest page worth asking for: providers return at most `resultCap` results per search.
    static func maximumUsefulPage(pages: Int, perPage: Int) -> Int {
        guard pages > 0, perPage > 0 else { return 0 }
        return max(1, min(pages, resultCap / perPage))
    }

    /// A request's page and page size as every source reads them: at least 1, and at most
    /// `maximumPerPage` photos per page.
    static func clamped(page: Int, perPage: Int) -> (page: Int, perPage: Int) {
        (max(1, page), min(maximumPerPage, max(1, perPage)))
    }

    /// Fails with `.pageOutOfRange` for a page past the first `resultCap` results.
    static func checkWithinResultCap(page: Int, perPage: Int, source: String) throws(ProviderError) {
        guard page <= resultCap / perPage else {
            throw ProviderError(
                .pageOutOfRange, "page \(page) of \(perPage) photos is past the first \(resultCap) results \(source) serves")
        }
    }
}

/// A photo as a provider describes it, before its bytes are fetched.
package struct ProviderPhoto: Sendable, Equatable {
    /// The provider's id, unique within the provider.
    package var id: String
    var title: String
    /// Space-separated lower-case tags, as Flickr gives them.
    var tags: String
    /// A place name when the provider knows one; empty otherwise (the server then names the
    /// place from the gazetteer).
    var place: String
    var latitude: Double
    var longitude: Double
    /// Where the bytes are: a URL for Flickr, a file or pool entry for the others.
    var reference: String

}

/// Why a provider could not deliver, worded for the user (an album's `failed` state shows it).
package struct ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
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

    var kind: Kind
    var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}
