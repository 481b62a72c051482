/// The positions and map views the protocol accepts (docs/PROTOCOL.md, AddPin and SetMapState).
/// The client checks them before sending, so a typo never costs a round trip, and the server
/// checks them again; both read the ranges and the wording from here.
public enum MapLimits {
    public static let latitude: ClosedRange<Double> = -90...90
    public static let longitude: ClosedRange<Double> = -180...180
    /// 1 shows the whole world; each step doubles the detail. The client's bundled 1:110m
    /// outlines carry no detail beyond 64.
    public static let zoom: ClosedRange<Double> = 1...64

    /// What is wrong with a position, in words, or nil when it lies on Earth.
    public static func positionProblem(latitude: Double, longitude: Double) -> String? {
        problem("latitude", latitude, Self.latitude) ?? problem("longitude", longitude, Self.longitude)
    }

    /// What is wrong with a zoom, in words, or nil when it is in range.
    public static func zoomProblem(_ zoom: Double) -> String? {
        problem("zoom", zoom, Self.zoom)
    }

    private static func problem(_ name: String, _ value: Double, _ range: ClosedRange<Double>) -> String? {
        guard !(value.isFinite && range.contains(value)) else { return nil }
        return
            "\(name) \(describe(value)) is out of range; it must be between \(describe(range.lowerBound)) and \(describe(range.upperBound))"
    }

    /// `4` rather than `4.0`, `-33.87` as is.
    public static func describe(_ value: Double) -> String {
        if abs(value) < 1e15, let whole = Int64(exactly: value) { return String(whole) }
        return String(value)
    }
}
