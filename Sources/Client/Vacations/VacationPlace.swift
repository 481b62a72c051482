/// A place of a vacation's itinerary, identified by its name alone.
struct VacationPlace: Sendable, Equatable {
    /// What a photo without a place name is filed under.
    static let unknown = "Unknown place"

    var name: String
    /// Milliseconds since the epoch when a photo of this place first entered the vacation
    /// (since it last had none).
    var firstVisited: Int64
    var photoCount: Int
}
