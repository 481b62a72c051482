import Foundation

/// Reverse geocoding offline: the nearest towns to a point, from the bundled GeoNames table
/// (`places.csv`, 34,006 towns of about 15,000 people or more, plus capitals).
///
/// Places are bucketed in a grid of 1-degree cells. A search looks at the cells that can hold
/// a place within some radius (a latitude band and, unless the circle reaches a pole, the
/// longitudes it spans, wrapped across the antimeridian), and widens the radius until it has
/// enough answers, so a point in a city costs a few dozen distance computations and a point in
/// mid-ocean a few thousand. The value is immutable and safe to share between threads.
package final class Gazetteer: Sendable {
    /// A place and how far it is from the point asked about.
    struct Match: Sendable, Equatable {
        var place: Place
        /// Great-circle distance in kilometres.
        var distanceKilometres: Double
    }

    /// Within this distance the description says `in X` rather than `near X (d km)`.
    static let inPlaceKilometres = 1.0
    /// Beyond this distance from every town a point is `in the middle of nowhere`, and
    /// `placeName` answers nil.
    static let nearbyKilometres = 300.0

    let places: [Place]

    // Per place, in radians, so a search need not convert (struct-of-arrays for cache locality).
    private let latitudes: [Double]
    private let longitudes: [Double]
    private let cosLatitudes: [Double]
    /// `cellStart[c] ..< cellStart[c + 1]` indexes `cellMembers` for grid cell `c`.
    private let cellStart: [Int32]
    private let cellMembers: [Int32]

    private static let rows = 180
    private static let columns = 360

    /// Indexes the given places.
    init(places: [Place]) {
        self.places = places
        latitudes = places.map { $0.latitude * .pi / 180 }
        longitudes = places.map { GreatCircle.normalizedLongitude($0.longitude) * .pi / 180 }
        cosLatitudes = latitudes.map { cos($0) }
        // Counting sort into cells: two passes, no per-cell arrays.
        let cells = places.map { Self.cell(row: Self.row($0.latitude), column: Self.column($0.longitude)) }
        var start = [Int32](repeating: 0, count: Self.rows * Self.columns + 1)
        for cell in cells { start[cell + 1] += 1 }
        for index in 0..<(start.count - 1) { start[index + 1] += start[index] }
        var next = start
        var members = [Int32](repeating: 0, count: places.count)
        for (index, cell) in cells.enumerated() {
            members[Int(next[cell])] = Int32(index)
            next[cell] += 1
        }
        cellStart = start
        cellMembers = members
    }

    /// Parses a gazetteer in the `places.csv` format
    /// (`name,country_code,country,admin1,lat,lon,population`).
    convenience init(csv bytes: [UInt8]) throws(PhotoSourceError) {
        let records: [CSVReader.Record]
        do {
            records = try CSVReader().records(bytes)
        } catch {
            throw PhotoSourceError("places.csv is not valid CSV: \(error)")
        }
        guard let header = records.first?.fields,
            header == ["name", "country_code", "country", "admin1", "lat", "lon", "population"]
        else {
            throw PhotoSourceError("places.csv must start with the header name,country_code,country,admin1,lat,lon,population")
        }
        var places: [Place] = []
        places.reserveCapacity(records.count - 1)
        for record in records.dropFirst() {
            let fields = record.fields
            guard fields.count == 7, !fields[0].isEmpty,
                let latitude = Double(fields[4]), latitude.isFinite, (-90...90).contains(latitude),
                let longitude = Double(fields[5]), longitude.isFinite, (-180...180).contains(longitude),
                let population = Int(fields[6]), population >= 0
            else {
                throw PhotoSourceError("places.csv line \(record.line) is not a valid place")
            }
            places.append(
                Place(
                    name: fields[0], countryCode: fields[1], country: fields[2], admin1: fields[3],
                    latitude: latitude, longitude: longitude, population: population))
        }
        self.init(places: places)
    }

    private static let bundledResult: Result<Gazetteer, PhotoSourceError> = Result(catching: { () throws(PhotoSourceError) -> Gazetteer in
        try Gazetteer(csv: ServerResources.read("places.csv"))
    })

    /// The gazetteer shipped with the server, loaded on first use and then shared.
    static func bundled() throws(PhotoSourceError) -> Gazetteer {
        try bundledResult.get()
    }

    // MARK: Queries

    /// The nearest place to a point, or nil when the gazetteer is empty or the point is not
    /// finite. Latitudes outside -90...90 are clamped and longitudes wrapped.
    func nearest(latitude: Double, longitude: Double) -> Match? {
        nearest(latitude: latitude, longitude: longitude, count: 1).first
    }

    /// Up to `count` places nearest a point, closest first, none farther than `maximumKilometres`.
    /// Ties go to the larger town.
    func nearest(
        latitude: Double, longitude: Double, count: Int, within maximumKilometres: Double = .infinity
    ) -> [Match] {
        guard latitude.isFinite, longitude.isFinite, count > 0, !places.isEmpty, maximumKilometres >= 0 else { return [] }
        let latitude = GreatCircle.clampedLatitude(latitude)
        let longitude = GreatCircle.normalizedLongitude(longitude)
        let limit = min(maximumKilometres, GreatCircle.maximumDistanceKilometres)
        var radius = min(25.0, limit)
        while true {
            var found = candidates(latitude: latitude, longitude: longitude, radius: radius)
            // Every place within `radius` is in `found`, so once it holds `count` of them the
            // nearest `count` overall are among them.
            if found.count >= count || radius >= limit {
                found.sort { a, b in
                    if a.distance != b.distance { return a.distance < b.distance }
                    if places[a.index].population != places[b.index].population {
                        return places[a.index].population > places[b.index].population
                    }
                    return a.index < b.index
                }
                return found.prefix(count).map { Match(place: places[$0.index], distanceKilometres: $0.distance) }
            }
            radius = min(radius * 3, limit)
        }
    }

    /// The town a person would name for a point: the nearest place, unless a place at least
    /// three times as populous is barely farther (within 2 km more), and then the largest such.
    /// GeoNames lists city districts as places of their own (`Paris 04 Hôtel-de-Ville`), and
    /// someone standing by Notre-Dame is "in Paris".
    func town(latitude: Double, longitude: Double, within maximumKilometres: Double = .infinity) -> Match? {
        guard let nearest = nearest(latitude: latitude, longitude: longitude, count: 1, within: maximumKilometres).first else { return nil }
        let reach = min(maximumKilometres, nearest.distanceKilometres + 2)
        let rivals = self.nearest(latitude: latitude, longitude: longitude, count: 50, within: reach)
        let largest = rivals.max { a, b in
            a.place.population != b.place.population ? a.place.population < b.place.population : a.distanceKilometres > b.distanceKilometres
        }
        guard let largest, largest.place.population >= 3 * max(1, nearest.place.population) else { return nearest }
        return largest
    }

    /// `Ann Arbor, Michigan, United States`: the `town` for a point within 300 km; nil farther
    /// out (mid-ocean, polar ice) or for a point that is not finite.
    func placeName(latitude: Double, longitude: Double) -> String? {
        town(latitude: latitude, longitude: longitude, within: Self.nearbyKilometres)?.place.displayName
    }

    /// Where a point is, in words, naming its `town`:
    /// - within 1 km of a town's centre: `in Ann Arbor, Michigan, United States`;
    /// - within 300 km: `near Ann Arbor, Michigan, United States (4.2 km)`;
    /// - farther: `in the middle of nowhere: 2,140 km from the nearest town (Hilo, Hawaii, United States)`.
    func describe(latitude: Double, longitude: Double) -> String {
        guard latitude.isFinite, longitude.isFinite else { return "at an invalid position" }
        guard let match = town(latitude: latitude, longitude: longitude) else { return "far from any known place" }
        let name = match.place.displayName
        let distance = match.distanceKilometres
        if distance < Self.inPlaceKilometres { return "in \(name)" }
        if distance <= Self.nearbyKilometres { return "near \(name) (\(Self.formatKilometres(distance)))" }
        return "in the middle of nowhere: \(Self.formatKilometres(distance)) from the nearest town (\(name))"
    }

    /// `4.2 km` under 10 km, then whole kilometres with thousands separators: `37 km`, `2,140 km`.
    static func formatKilometres(_ distance: Double) -> String {
        if distance < 9.95 {
            let tenths = Int((distance * 10).rounded())
            return "\(tenths / 10).\(tenths % 10) km"
        }
        var digits = String(Int(distance.rounded()))
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return digits + grouped + " km"
    }

    // MARK: Grid

    private static func row(_ latitude: Double) -> Int {
        min(rows - 1, max(0, Int((latitude + 90).rounded(.down))))
    }

    private static func column(_ longitude: Double) -> Int {
        let wrapped = GreatCircle.normalizedLongitude(longitude)
        return min(columns - 1, max(0, Int((wrapped + 180).rounded(.down))))
    }

    private static func cell(row: Int, column: Int) -> Int { row * columns + column }

    /// Every place within `radius` km of the point (which is already clamped and wrapped), with
    /// its distance; unsorted.
    private func candidates(latitude: Double, longitude: Double, radius: Double) -> [(index: Int, distance: Double)] {
        // The circle's angular radius, a little wider so rounding never drops a place on its edge.
        let angle = radius / GreatCircle.earthRadiusKilometres + 1e-9
        let angleDegrees = angle * 180 / .pi
        let south = latitude - angleDegrees
        let north = latitude + angleDegrees
        let firstRow = Self.row(max(-90, south))
        let lastRow = Self.row(min(90, north))
        // A circle around a pole spans every longitude; otherwise its widest longitude offset
        // is asin(sin(angle) / cos(latitude)).
        var allColumns = south <= -90 || north >= 90 || angle >= .pi / 2
        var firstColumn = 0
        var columnCount = Self.columns
        if !allColumns {
            let ratio = sin(angle) / cos(latitude * .pi / 180)
            if ratio >= 1 {
                allColumns = true
            } else {
                let spread = asin(ratio) * 180 / .pi
                // Columns are counted from the (unwrapped) west edge and wrapped below.
                firstColumn = Int((longitude - spread + 180).rounded(.down))
                let lastColumn = Int((longitude + spread + 180).rounded(.down))
                columnCount = min(Self.columns, lastColumn - firstColumn + 1)
                if columnCount >= Self.columns { allColumns = true }
            }
        }
        if allColumns {
            firstColumn = 0
            columnCount = Self.columns
        }

        let lat0 = latitude * .pi / 180
        let cos0 = cos(lat0)
        let lon0 = longitude * .pi / 180
        var found: [(index: Int, distance: Double)] = []
        for row in firstRow...lastRow {
            for offset in 0..<columnCount {
                var column = (firstColumn + offset) % Self.columns
                if column < 0 { column += Self.columns }
                let cell = Self.cell(row: row, column: column)
                for slot in Int(cellStart[cell])..<Int(cellStart[cell + 1]) {
                    let index = Int(cellMembers[slot])
                    let distance = GreatCircle.distanceKilometres(
                        latitudeRadians: lat0, cosLatitude: cos0, longitudeRadians: lon0,
                        toLatitudeRadians: latitudes[index], toCosLatitude: cosLatitudes[index],
                        toLongitudeRadians: longitudes[index])
                    if distance <= radius { found.append((index, distance)) }
                }
            }
        }
        return found
    }
}
