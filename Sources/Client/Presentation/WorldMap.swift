import Foundation

/// Country outlines read from a GeoJSON FeatureCollection of Polygon and MultiPolygon features
/// (the bundled Natural Earth 1:110m countries), as rings of [longitude, latitude] points.
struct WorldMap: Sendable {
    /// One closed outline with its bounding box, so drawing can skip what is off the view.
    struct Ring: Sendable {
        /// Interleaved longitude, latitude pairs.
        let coordinates: [Double]
        let longitudes: ClosedRange<Double>
        let latitudes: ClosedRange<Double>

        var pointCount: Int { coordinates.count / 2 }
    }

    /// One feature: a country and its outlines (islands, exclaves, holes).
    struct Country: Sendable {
        package let name: String
        let rings: [Ring]
    }

    /// Why a GeoJSON document was refused.
    struct FormatError: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    let countries: [Country]

    /// The most features and points accepted, far above the bundled file (177 features, about
    /// 10,600 points), so a replaced file cannot make the client allocate without bound.
    static let maximumFeatures = 10_000
    static let maximumPoints = 2_000_000
    static let maximumBytes = 64 * 1024 * 1024

    /// Parses a FeatureCollection; other geometry types are skipped, malformed coordinates refused.
    init(geoJSON data: [UInt8]) throws(FormatError) {
        guard data.count <= Self.maximumBytes else { throw FormatError(description: "the outline file is larger than 64 MB") }
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: Data(data)) } catch {
            throw FormatError(description: "the outline file is not JSON: \(error.localizedDescription)")
        }
        guard let collection = root as? [String: Any], collection["type"] as? String == "FeatureCollection",
            let features = collection["features"] as? [Any]
        else {
            throw FormatError(description: "the outline file is not a GeoJSON FeatureCollection")
        }
        guard features.count <= Self.maximumFeatures else {
            throw FormatError(description: "the outline file has more than \(Self.maximumFeatures) features")
        }
        var countries: [Country] = []
        var points = 0
        for (index, element) in features.enumerated() {
            guard let feature = element as? [String: Any], let geometry = feature["geometry"] as? [String: Any] else {
                throw FormatError(description: "feature \(index) has no geometry")
            }
            let name = (feature["properties"] as? [String: Any])?["name"] as? String ?? ""
            let polygons: [Any]
            switch geometry["type"] as? String {
            case "Polygon": polygons = [geometry["coordinates"] as Any]
            case "MultiPolygon":
                guard let list = geometry["coordinates"] as? [Any] else {
                    throw FormatError(description: "feature \(index) (\(name)): MultiPolygon without coordinates")
                }
                polygons = list
            default: continue
            }
            var rings: [Ring] = []
            for polygon in polygons {
                guard let ringList = polygon as? [Any] else {
                    throw FormatError(description: "feature \(index) (\(name)): a polygon is not a list of rings")
                }
                for ring in ringList {
                    let parsed = try Self.ring(ring, feature: index, name: name)
                    points += parsed.pointCount
                    guard points <= Self.maximumPoints else {
                        throw FormatError(description: "the outline file has more than \(Self.maximumPoints) points")
                    }
                    rings.append(parsed)
                }
            }
            countries.append(Country(name: name, rings: rings))
        }
        self.countries = countries
    }

    private static func ring(_ value: Any, feature: Int, name: String) throws(FormatError) -> Ring {
        guard let positions = value as? [Any], !positions.isEmpty else {
            throw FormatError(description: "feature \(feature) (\(name)): a ring is not a list of positions")
        }
        var coordinates: [Double] = []
        coordinates.reserveCapacity(positions.count * 2)
        var west = Double.infinity
        var east = -Double.infinity
        var south = Double.infinity
        var north = -Double.infinity
        for position in positions {
            guard let pair = position as? [Any], pair.count >= 2,
                let lon = (pair[0] as? NSNumber)?.doubleValue, let lat = (pair[1] as? NSNumber)?.doubleValue,
                lon.isFinite, lat.isFinite, (-540...540).contains(lon), (-90...90).contains(lat)
            else {
                throw FormatError(description: "feature \(feature) (\(name)): a position is not [longitude, latitude]")
            }
            coordinates += [lon, lat]
            west = min(west, lon)
            east = max(east, lon)
            south = min(south, lat)
            north = max(north, lat)
        }
        return Ring(coordinates: coordinates, longitudes: west...east, latitudes: south...north)
    }

    /// The outlines bundled with the client.
    static func bundled() throws(FormatError) -> WorldMap {
        guard let url = ClientResources.url("world-110m.geojson"), let data = FileManager.default.contents(atPath: url.path) else {
            throw FormatError(
                description: "the world outlines (world-110m.geojson) are missing from the installation "
                    + "(looked in \(ClientResources.searched))")
        }
        return try WorldMap(geoJSON: [UInt8](data))
    }

    /// Whether a segment between two outline points is a real coast or border. The file cuts
    /// shapes at the antimeridian, so some edges run along ±180° (Russia, Fiji, Antarctica) or
    /// jump from one side to the other; drawn, they would be a seam line or a streak across
    /// the whole map.
    static func isDrawable(fromLongitude a: Double, toLongitude b: Double) -> Bool {
        if abs(a - b) > 180 { return false }
        if a == b && abs(a) >= 180 { return false }
        return true
    }
}
