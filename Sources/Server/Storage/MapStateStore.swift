/// Each user's saved map view (where the map was centered and how far it was zoomed), so the
/// map opens where it was left. Used by the pin handlers.
///
/// A center outside the globe or a zoom outside 1...64 is refused.
package protocol MapStateStore: AnyObject {
    /// The user's saved map view, or nil when none was saved.
    func mapState(userID: Int64) throws -> MapStateRecord?
    /// Saves (replaces) the user's map view.
    func saveMapState(_ state: MapStateRecord, userID: Int64, at: Int64) throws
}

/// A saved map view.
package struct MapStateRecord: Sendable, Equatable {
    var centerLatitude: Double
    var centerLongitude: Double
    var zoom: Double
}
