/// Everything a visit copies into a vacation: the photo's details and both images, so the
/// vacation can be browsed without the server.
struct VisitedPhoto: Sendable, Equatable {
    var origin: String
    var photoID: UInt64
    var title: String
    /// The place name; empty files the photo under `VacationPlace.unknown`.
    var place: String
    /// The provider's tag string, space-separated (parsed by `VacationTag.parse`).
    var tags: String
    var latitude: Double
    var longitude: Double
    var width: Int
    var height: Int
    var image: [UInt8]
    var thumbnail: [UInt8]
}
