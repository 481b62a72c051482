/// An equirectangular view of the world on a grid of square dots: a centre, a zoom, a size.
///
/// At zoom 1 the whole 360° of longitude spans the width; zoom 2 shows half of it, and so on.
/// Both axes use the same degrees per dot, so shapes keep their proportions on braille dots.
struct MapProjection: Sendable, Equatable {
    let centerLatitude: Double
    let centerLongitude: Double
    let zoom: Double
    /// Width and height in dots.
    let width: Int
    let height: Int

    /// A view of `width` x `height` dots; zoom below 1 is taken as 1.
    init(centerLatitude: Double, centerLongitude: Double, zoom: Double, width: Int, height: Int) {
        self.centerLatitude = centerLatitude
        self.centerLongitude = centerLongitude
        self.zoom = max(1, zoom)
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// Degrees of latitude or longitude per dot.
    var degreesPerDot: Double { 360 / (Double(width) * zoom) }

    /// The longitudes at the left and right edges (possibly beyond ±180 near the antimeridian).
    var longitudeSpan: ClosedRange<Double> {
        let half = Double(width) / 2 * degreesPerDot
        return (centerLongitude - half)...(centerLongitude + half)
    }

    /// The latitudes at the bottom and top edges (possibly beyond ±90 when zoomed out).
    var latitudeSpan: ClosedRange<Double> {
        let half = Double(height) / 2 * degreesPerDot
        return (centerLatitude - half)...(centerLatitude + half)
    }

    /// The dot position of a point, fractions kept; the point's longitude is used as given.
    func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (
            (longitude - centerLongitude) / degreesPerDot + Double(width) / 2,
            (centerLatitude - latitude) / degreesPerDot + Double(height) / 2
        )
    }

    /// The dot that shows a place, taking the copy of its longitude nearest the centre (so a
    /// pin at 179°E shows just right of a centre at 178°E and just left of one at 179°W);
    /// nil when it is off the view.
    func dot(latitude: Double, longitude: Double) -> (x: Int, y: Int)? {
        let p = point(latitude: latitude, longitude: nearestCopy(of: longitude))
        let x = p.x.rounded(.down)
        let y = p.y.rounded(.down)
        guard x >= 0, y >= 0, x < Double(width), y < Double(height) else { return nil }
        return (Int(x), Int(y))
    }

    /// The braille cell (2 x 4 dots, as `BrailleCanvas` draws) that shows a place, counted from
    /// the view's top left; nil when it is off the view.
    func cell(latitude: Double, longitude: Double) -> (column: Int, row: Int)? {
        dot(latitude: latitude, longitude: longitude).map { ($0.x / 2, $0.y / 4) }
    }

    /// The place under the middle of braille cell (`column`, `row`), where a click there lands:
    /// its longitude wrapped into -180...180, its latitude as far north or south as the view
    /// reaches (past ±90 when zoomed out, which the caller refuses).
    func place(atColumn column: Int, row: Int) -> (latitude: Double, longitude: Double) {
        let x = Double(column * 2 + 1)
        let y = Double(row * 4 + 2)
        return (
            centerLatitude - (y - Double(height) / 2) * degreesPerDot,
            Self.wrapped(centerLongitude + (x - Double(width) / 2) * degreesPerDot)
        )
    }

    /// How far one pan moves the centre, in degrees: an eighth of the view's width.
    var panStep: Double { Double(width) / 8 * degreesPerDot }

    /// `longitude` moved by whole turns into -180...180.
    static func wrapped(_ longitude: Double) -> Double {
        longitude.remainder(dividingBy: 360)
    }

    /// `longitude` shifted by whole turns to lie within 180° of the centre.
    func nearestCopy(of longitude: Double) -> Double {
        longitude + 360 * ((centerLongitude - longitude) / 360).rounded()
    }

    /// The whole-turn shifts (…, -360, 0, 360, …) that bring a longitude range into view, so
    /// outlines near the antimeridian are drawn on both sides of it.
    func copyOffsets(forLongitudes range: ClosedRange<Double>) -> [Double] {
        let view = longitudeSpan
        let first = ((view.lowerBound - range.upperBound) / 360).rounded(.up)
        let last = ((view.upperBound - range.lowerBound) / 360).rounded(.down)
        guard first <= last else { return [] }
        return stride(from: first, through: last, by: 1).map { $0 * 360 }
    }

    /// Whether a latitude range overlaps the view.
    func showsLatitudes(_ range: ClosedRange<Double>) -> Bool {
        range.overlaps(latitudeSpan)
    }
}
