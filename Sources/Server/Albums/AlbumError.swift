/// Why the album lifecycle refused a request; the request handlers give each its wire code.
enum AlbumError: Error, Equatable {
    /// The user already keeps `limit` pins.
    case tooManyPins(limit: Int)
    /// The user has no such pin (or it is another user's: ids leak nothing).
    case noPin(Int64)
    /// The album is still downloading; a new collection must wait for it.
    case busy(pinID: Int64, done: Int, expected: Int)

    var message: String {
        switch self {
        case .tooManyPins(let limit):
            "you already have \(limit) pins, the most one user may keep; delete some first"
        case .noPin(let id):
            "you have no pin \(id)"
        case .busy(let pinID, let done, let expected):
            "the album of pin \(pinID) is still downloading (\(done) of \(expected) photos); "
                + "ask for a new collection when it is done"
        }
    }
}
