/// One line of `vacation list`.
struct VacationSummary: Sendable, Equatable {
    var name: String
    var photos: Int
    var places: Int
    var tags: Int
    /// False for the default vacation shown before its file exists.
    var exists: Bool
}
