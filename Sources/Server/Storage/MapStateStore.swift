/// Each user's saved map view (where the map was centered and how far it was zoomed), so the
/// map opens where it was left. Used by the pin handlers.
///
/// A center outside the globe or a zoom outside 1...64 is refused.
public protocol MapStateStore: AnyObject {
    /// The user's saved map view, or nil when none was saved.
    func mapState(userID: Int64) throws -> MapStateRecord?
    /// Saves (replaces) the user's map view.
    func saveMapState(_ state: MapStateRecord, userID: Int64, at: Int64) throws
}

/// A saved map view.
public struct MapStateRecord: Sendable, Equatable {
    public var centerLatitude: Double
    public var centerLongitude: Double
    public var zoom: Double
    public init(centerLatitude: Double, centerLongitude: Double, zoom: Double) {
        self.centerLatitude = centerLatitude
        self.centerLongitude = centerLongitude
        self.zoom = zoom
    }
}
