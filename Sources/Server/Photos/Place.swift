/// A town or city of the gazetteer (GeoNames `cities15000`: about 15,000 people or more, plus
/// capitals).
struct Place: Sendable, Equatable {
    /// The GeoNames name with its accents, e.g. `São Paulo`.
    package var name: String
    /// ISO 3166-1 alpha-2, e.g. `US`.
    var countryCode: String
    /// The English country name, e.g. `United States`.
    var country: String
    /// The state, province or region; empty when GeoNames has none (Singapore, Gibraltar, ...).
    var admin1: String
    /// Degrees north, -90...90.
    var latitude: Double
    /// Degrees east, -180...180.
    var longitude: Double
    var population: Int

    init(
        name: String, countryCode: String, country: String, admin1: String,
        latitude: Double, longitude: Double, population: Int
    ) {
        self.name = name
        self.countryCode = countryCode
        self.country = country
        self.admin1 = admin1
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
    }

    /// `Ann Arbor, Michigan, United States`: name, region and country, leaving out an empty
    /// region and a part that repeats the one before it (`Singapore`, not `Singapore, Singapore`;
    /// `Shanghai, China`, not `Shanghai, Shanghai, China`).
    var displayName: String {
        var parts: [String] = []
        for part in [name, admin1, country] where !part.isEmpty && part != parts.last {
            parts.append(part)
        }
        return parts.joined(separator: ", ")
    }
}
