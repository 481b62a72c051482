import Wire

/// How large a request's reply can get, for the connection's buffer budget: the budget must
/// hold before a request starts, so every reply needs a bound known from the request alone
/// (each route says which, in `RequestTable`).
enum ReplySize: Equatable {
    /// A reply of a few fields: Ok, Pong, Authenticated, a record, an error.
    case small
    /// A reply carrying a stored image: at most the largest stored image (`ImageCeiling`).
    case image
    /// A list that grows with the data (snaps, feeds, pins, an album, movies, users).
    case listing

    /// Every small reply fits in this many bytes (an error message is at most 1 KiB).
    static let smallEstimate = 4 * 1024
    /// A connection's first listing is assumed this large; later ones the size of the last.
    static let initialListingEstimate = 256 * 1024

    /// The bytes to reserve for the reply.
    func estimate(image: Int, listing: Int) -> Int {
        switch self {
        case .small: Self.smallEstimate
        case .image: image
        case .listing: listing
        }
    }
}
