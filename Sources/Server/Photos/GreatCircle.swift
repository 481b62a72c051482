import Foundation

/// Distances and positions on the Earth taken as a sphere: good to about 0.5 %, which is far
/// finer than a town's extent.
enum GreatCircle {
    /// The mean Earth radius (IUGG), in kilometres.
    static let earthRadiusKilometres = 6371.0088
    /// Half the circumference: no two points are farther apart than this.
    static let maximumDistanceKilometres = Double.pi * earthRadiusKilometres

    /// The haversine distance in kilometres between two points given in degrees.
    static func distanceKilometres(
        latitude: Double, longitude: Double, toLatitude: Double, toLongitude: Double
    ) -> Double {
        let lat1 = latitude * .pi / 180
        let lat2 = toLatitude * .pi / 180
        return distanceKilometres(
            latitudeRadians: lat1, cosLatitude: cos(lat1), longitudeRadians: longitude * .pi / 180,
            toLatitudeRadians: lat2, toCosLatitude: cos(lat2), toLongitudeRadians: toLongitude * .pi / 180)
    }

    /// The haversine distance from precomputed radians and cosines (the gazetteer keeps them
    /// per place so a search does one `sin` pair and one `asin` per candidate).
    @inline(__always)
    static func distanceKilometres(
        latitudeRadians lat1: Double, cosLatitude cos1: Double, longitudeRadians lon1: Double,
        toLatitudeRadians lat2: Double, toCosLatitude cos2: Double, toLongitudeRadians lon2: Double
    ) -> Double {
        let sinHalfLat = sin((lat2 - lat1) / 2)
        let sinHalfLon = sin((lon2 - lon1) / 2)
        let a = sinHalfLat * sinHalfLat + cos1 * cos2 * sinHalfLon * sinHalfLon
        // Rounding can push `a` a hair above 1 for antipodal points; asin would return NaN.
        return 2 * earthRadiusKilometres * asin(min(1, a.squareRoot()))
    }

    /// The point reached by going `distance` kilometres from a start point on the initial
    /// `bearing` (degrees clockwise from north). Works across the poles and the antimeridian;
    /// the result has latitude in -90...90 and longitude in -180..<180.
    static func destination(
        latitude: Double, longitude: Double, distanceKilometres distance: Double, bearingDegrees bearing: Double
    ) -> (latitude: Double, longitude: Double) {
        let lat1 = latitude * .pi / 180
        let lon1 = longitude * .pi / 180
        let angle = distance / earthRadiusKilometres
        let theta = bearing * .pi / 180
        let sinLat2 = sin(lat1) * cos(angle) + cos(lat1) * sin(angle) * cos(theta)
        let lat2 = asin(max(-1, min(1, sinLat2)))
        let lon2 = lon1 + atan2(sin(theta) * sin(angle) * cos(lat1), cos(angle) - sin(lat1) * sinLat2)
        return (lat2 * 180 / .pi, normalizedLongitude(lon2 * 180 / .pi))
    }

    /// Any finite longitude wrapped into -180..<180 (so 180 becomes -180, 190 becomes -170).
    static func normalizedLongitude(_ longitude: Double) -> Double {
        guard longitude.isFinite else { return longitude }
        if longitude >= -180 && longitude < 180 { return longitude }
        var wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if wrapped < 0 { wrapped += 360 }
        // For huge inputs the remainder can round up to exactly 360.
        return wrapped >= 360 ? -180 : wrapped - 180
    }

    /// Any finite latitude clamped into -90...90.
    static func clampedLatitude(_ latitude: Double) -> Double {
        min(90, max(-90, latitude))
    }
}
