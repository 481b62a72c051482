import Foundation
import Imaging

/// The default photo source (`--photos builtin`): works offline and gives the same album for
/// the same place and page every time.
///
/// Rules, modelled on a Flickr search by lat/lon with a radius:
/// - A point has photos when a gazetteer town (`Gazetteer.town`) lies within 50 km
///   (`coverageKilometres`); farther
///   out (mid-ocean, polar ice, deep desert) the result is empty, so "No Images" is real.
/// - How many: 60 for a 15,000-people town at its centre, growing with population to the 12,000
///   of a megacity (`60 * (population / 15,000)^0.75`), divided by `1 + distance / 10 km`, at
///   least 1. Like Flickr, only the first 4,000 results are served.
/// - The point is rounded to 3 decimals (about 100 m) first; everything after follows from that
///   rounded point and the photo's index in the result list, so pages never overlap and a page
///   asked twice is the same page.
/// - Each photo stands at a random spot within the search radius (5 km unless configured) and
///   carries the real nearest town to that spot, a title, and Flickr-like tags: the town, region
///   and country, subject words, now and then generic words and machine tags (`geo:lat=...`).
/// - About half the photos are from the bundled pool of 66, the others are painted scenes
///   (mountains, sunsets, skylines, beaches, fields, northern lights) chosen by climate and
///   town size.
package struct BuiltinPhotoProvider: PhotoProvider {
    package let name = "builtin"

    /// A point has photos when a town lies within this distance.
    static let coverageKilometres = 50.0
    /// The most photos any place has.
    static let maximumTotal = 12_000

    let gazetteer: Gazetteer
    let pool: AlbumPool
    /// Photos stand within this distance of the point searched.
    let searchRadiusKilometres: Double
    private let poolIndex: [String: Int]
    /// Pool entries repeated by weight: colour photos three times, grey ones once.
    private let poolDraw: [Int]

    /// A source over the given gazetteer and pool.
    package init(gazetteer: Gazetteer, pool: AlbumPool, searchRadiusKilometres: Double = 5) {
        self.gazetteer = gazetteer
        self.pool = pool
        self.searchRadiusKilometres = max(0, min(32, searchRadiusKilometres))
        poolIndex = Dictionary(pool.entries.enumerated().map { ($1.fileName, $0) }, uniquingKeysWith: { first, _ in first })
        let colourful: Set<String> = ["astronaut", "coffee", "cat", "rocket", "hubble", "retina"]
        poolDraw = pool.entries.indices.flatMap { index in
            Array(repeating: index, count: colourful.contains(pool.entries[index].subject) ? 3 : 1)
        }
    }

    /// The source over the bundled gazetteer and album pool.
    package static func bundled(searchRadiusKilometres: Double = 5) throws(PhotoSourceError) -> BuiltinPhotoProvider {
        BuiltinPhotoProvider(
            gazetteer: try Gazetteer.bundled(), pool: try AlbumPool.bundled(), searchRadiusKilometres: searchRadiusKilometres)
    }

    // MARK: PhotoProvider

    /// One page of photos near a point. `perPage` is clamped to 1...250 and a page below 1 reads
    /// as page 1. A page past the last gives an empty page; a page past the first 4,000 results
    /// fails with `.pageOutOfRange`, as Flickr's error 20 does. A point that is not finite has
    /// no photos.
    package func search(latitude: Double, longitude: Double, page: Int, perPage: Int) async throws(ProviderError) -> PhotoSearchPage {
        try searchPage(latitude: latitude, longitude: longitude, page: page, perPage: perPage)
    }

    /// The bytes of a photo this source returned: a pool PNG, or a scene painted again from
    /// its seed.
    package func fetchImage(_ photo: ProviderPhoto) async throws(ProviderError) -> [UInt8] {
        try imageBytes(reference: photo.reference, id: photo.id)
    }

    // MARK: The catalogue

    /// How many photos the source has around a point: 0 far from every town.
    package func total(latitude: Double, longitude: Double) -> Int {
        guard let key = PositionKey(latitude: latitude, longitude: longitude), let area = area(at: key) else { return 0 }
        return Self.total(of: area)
    }

    /// The synchronous body of `search`, also used by tests.
    func searchPage(latitude: Double, longitude: Double, page: Int, perPage: Int) throws(ProviderError) -> PhotoSearchPage {
        let (page, perPage) = PhotoSearchPage.clamped(page: page, perPage: perPage)
        guard let key = PositionKey(latitude: latitude, longitude: longitude) else {
            return PhotoSearchPage(page: page, pages: 0, perPage: perPage, total: 0, photos: [])
        }
        try PhotoSearchPage.checkWithinResultCap(page: page, perPage: perPage, source: "a search")
        let area = area(at: key)
        let total = area.map(Self.total(of:)) ?? 0
        let pages = (total + perPage - 1) / perPage
        guard page <= pages else { return PhotoSearchPage(page: page, pages: pages, perPage: perPage, total: total, photos: []) }
        let first = (page - 1) * perPage
        let end = min(total, first + perPage, PhotoSearchPage.resultCap)
        let photos = (first..<end).map { photo(at: key, index: $0, areaPopulation: area?.place.population ?? 0) }
        return PhotoSearchPage(page: page, pages: pages, perPage: perPage, total: total, photos: photos)
    }

    /// The point rounded to 3 decimals, as whole thousandths of a degree.
    struct PositionKey: Hashable {
        var latitude: Int
        var longitude: Int

        init?(latitude: Double, longitude: Double) {
            guard latitude.isFinite, longitude.isFinite else { return nil }
            self.latitude = Int((GreatCircle.clampedLatitude(latitude) * 1000).rounded())
            let lon = Int((GreatCircle.normalizedLongitude(longitude) * 1000).rounded())
            // 179.9996 rounds to 180.000, which is -180.000 on the map.
            self.longitude = lon >= 180_000 ? lon - 360_000 : lon
        }

        var degrees: (latitude: Double, longitude: Double) { (Double(latitude) / 1000, Double(longitude) / 1000) }
        var seedParts: (UInt64, UInt64) { (UInt64(bitPattern: Int64(latitude)), UInt64(bitPattern: Int64(longitude))) }
    }

    /// The town a search around the point is about; nil when none is within reach.
    private func area(at key: PositionKey) -> Gazetteer.Match? {
        let point = key.degrees
        return gazetteer.town(latitude: point.latitude, longitude: point.longitude, within: Self.coverageKilometres)
    }

    private static func total(of town: Gazetteer.Match) -> Int {
        let base = 60 * pow(Double(max(town.place.population, 1)) / 15_000, 0.75)
        let nearby = base / (1 + town.distanceKilometres / 10)
        return max(1, min(maximumTotal, Int(nearby.rounded())))
    }

    private func photo(at key: PositionKey, index: Int, areaPopulation: Int) -> ProviderPhoto {
        let (latitudeSeed, longitudeSeed) = key.seedParts
        var random = SeededGenerator(latitudeSeed, longitudeSeed, UInt64(index))
        let point = key.degrees
        // Uniform over the disc: the square root keeps the centre from crowding.
        let spot = GreatCircle.destination(
            latitude: point.latitude, longitude: point.longitude,
            distanceKilometres: searchRadiusKilometres * random.unit().squareRoot(), bearingDegrees: 360 * random.unit())
        let latitude = (spot.latitude * 1e6).rounded() / 1e6
        let longitude = (spot.longitude * 1e6).rounded() / 1e6
        let town = gazetteer.town(latitude: latitude, longitude: longitude)?.place

        let reference: String
        let subject: String
        let subjectTags: [String]
        if !poolDraw.isEmpty && random.unit() < 0.5 {
            let entry = pool.entries[poolDraw[Int(random.next() % UInt64(poolDraw.count))]]
            reference = "pool/" + entry.fileName
            subject = entry.subject
            subjectTags = Self.poolTags[entry.subject] ?? [PhotoTags.tag(entry.subject)]
        } else {
            // Skylines where the search is about a city, even when the photo's own nearest
            // place is one of its districts.
            let kind = sceneKind(latitude: latitude, population: max(areaPopulation, town?.population ?? 0), random: &random)
            reference = "scene/\(kind.rawValue)/" + String(random.next(), radix: 16)
            subject = kind.rawValue
            subjectTags = kind.tags
        }

        let townName = town?.name ?? "the wild"
        var title: String
        if random.unit() < 0.1 {
            title = (random.unit() < 0.5 ? "IMG_" : "DSC0") + String(1000 + random.next() % 9000)
        } else {
            let templates = Self.titles[subject] ?? ["{town}"]
            title = templates[Int(random.next() % UInt64(templates.count))].replacingOccurrences(of: "{town}", with: townName)
        }
        title = title.prefix(1).uppercased() + title.dropFirst()

        var tags: [String] = []
        if let town { tags += [PhotoTags.tag(town.name), PhotoTags.tag(town.admin1), PhotoTags.tag(town.country)] }
        tags += subjectTags
        for word in Self.genericTags where random.unit() < 0.08 { tags.append(word) }
        if random.unit() < 0.25 {
            tags += [String(format: "geo:lat=%.4f", latitude), String(format: "geo:lon=%.4f", longitude)]
        }
        if random.unit() < 0.1 { tags.append("uploaded:by=snapshare") }

        return ProviderPhoto(
            id: "\(key.latitude)_\(key.longitude)_\(index)", title: title, tags: PhotoTags.join(tags),
            place: town?.displayName ?? "", latitude: latitude, longitude: longitude, reference: reference)
    }

    /// Scenes that fit the climate: northern lights and snow up north, beaches in the tropics,
    /// skylines where there is a city.
    private func sceneKind(latitude: Double, population: Int, random: inout SeededGenerator) -> ScenePainter.Kind {
        let city = population >= 300_000
        let weights: [(ScenePainter.Kind, Int)]
        switch abs(latitude) {
        case 60...:
            weights = [(.aurora, 3), (.snowyPeaks, 3), (.mountains, 1), (.fields, 1), (.skyline, city ? 2 : 0)]
        case ..<23.5:
            weights = [(.beach, 4), (.sunset, 3), (.fields, 1), (.mountains, 1), (.skyline, city ? 3 : 1)]
        default:
            weights = [
                (.mountains, 2), (.snowyPeaks, abs(latitude) > 40 ? 1 : 0), (.sunset, 2), (.fields, 2), (.beach, 1),
                (.skyline, city ? 4 : 1),
            ]
        }
        var pick = Int(random.next() % UInt64(weights.reduce(0) { $0 + $1.1 }))
        for (kind, weight) in weights {
            if pick < weight { return kind }
            pick -= weight
        }
        return .fields
    }

    private func imageBytes(reference: String, id: String) throws(ProviderError) -> [UInt8] {
        let parts = reference.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0] == "pool", let index = poolIndex[String(parts[1])] {
            return pool.entries[index].bytes
        }
        if parts.count == 3, parts[0] == "scene", let kind = ScenePainter.Kind(rawValue: String(parts[1])),
            let seed = UInt64(parts[2], radix: 16)
        {
            return try ScenePainter.png(kind, seed: seed)
        }
        throw ProviderError(.badResponse, "the built-in source has no photo \(id) (reference \(reference))")
    }

    // MARK: Words

    private static let poolTags: [String: [String]] = [
        "astronaut": ["astronaut", "space", "nasa", "museum"],
        "coffee": ["coffee", "espresso", "cafe", "breakfast"],
        "cat": ["cat", "pet", "animal", "cute"],
        "rocket": ["rocket", "launch", "space", "spacex"],
        "camera": ["camera", "photographer", "tripod", "blackandwhite"],
        "hubble": ["hubble", "galaxies", "space", "astronomy"],
        "retina": ["macro", "abstract", "orange"],
        "brick": ["brick", "wall", "texture", "blackandwhite"],
        "grass": ["grass", "texture", "nature"],
        "gravel": ["gravel", "stones", "texture"],
        "cell": ["microscope", "science", "cells"],
    ]

    private static let titles: [String: [String]] = [
        "astronaut": ["Astronaut at the science museum", "Space exhibit, {town}", "Suited up"],
        "coffee": ["Coffee in {town}", "Morning espresso", "Flat white, {town}", "Best coffee in {town}"],
        "cat": ["Cat of {town}", "Sleepy cat", "{town} street cat", "Window cat"],
        "rocket": ["Launch day", "Rocket launch seen from {town}", "Liftoff"],
        "camera": ["Photographer at work", "Tripod in {town}", "Old camera, {town}"],
        "hubble": ["Deep field", "Galaxies seen from {town}", "Looking up"],
        "retina": ["Orange abstract", "Macro study", "Colour study, {town}"],
        "brick": ["Brick wall, {town}", "Old brickwork", "Texture: bricks"],
        "grass": ["Grass", "Lawn in {town}", "After the rain"],
        "gravel": ["Gravel path", "Stones near {town}", "Underfoot"],
        "cell": ["Microscope slide", "Science fair, {town}", "Cells"],
        "mountains": ["Hills above {town}", "Hiking near {town}", "Mountain view", "Ridges at dawn"],
        "snowyPeaks": ["Snow on the peaks near {town}", "Winter ridge", "First snow above {town}"],
        "sunset": ["Sunset over {town}", "Golden hour", "Evening by the water, {town}"],
        "skyline": ["{town} skyline at night", "City lights", "Downtown {town} after dark"],
        "beach": ["Beach near {town}", "Sea breeze", "A day at the beach, {town}"],
        "fields": ["Fields outside {town}", "Countryside", "Harvest time near {town}"],
        "aurora": ["Northern lights over {town}", "Aurora", "Green skies near {town}"],
    ]

    private static let genericTags = [
        "travel", "vacation", "holiday", "summer", "winter", "explore", "iphone", "nikon", "canon", "weekend",
    ]
}
