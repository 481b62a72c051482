/// A photo kept in a vacation, without its image bytes.
struct VacationPhoto: Sendable, Equatable {
    /// What a photo without a title is listed as.
    static let unknownTitle = "Unknown"

    /// The server the photo was copied from (`host:port`).
    var origin: String
    /// The photo's id on that server.
    var photoID: UInt64
    /// As the server had it; may be empty (see `displayTitle`).
    var title: String
    var place: String
    /// Lower case, without machine tags, each once.
    var tags: [String]
    var latitude: Double
    var longitude: Double
    var width: Int
    var height: Int
    var visitedAt: Int64

    /// The title, or `Unknown` when it has none.
    var displayTitle: String { title.isEmpty ? Self.unknownTitle : title }

    /// Photo lists are sorted by title ignoring case; the id keeps equal titles in a stable order.
    static func listingOrder(_ a: VacationPhoto, _ b: VacationPhoto) -> Bool {
        let left = a.displayTitle.lowercased()
        let right = b.displayTitle.lowercased()
        if left != right { return left < right }
        return a.photoID < b.photoID
    }
}
