import Foundation
import Imaging
import Testing

@testable import Server

@Suite("Gazetteer")
struct GazetteerTests {
    let gazetteer: Gazetteer

    init() throws {
        gazetteer = try Gazetteer.bundled()
    }

    /// The nearest place by checking every place, to hold the grid search to.
    func bruteForceNearest(latitude: Double, longitude: Double) -> (Place, Double)? {
        var best: (Place, Double)?
        for place in gazetteer.places {
            let distance = GreatCircle.distanceKilometres(
                latitude: latitude, longitude: longitude, toLatitude: place.latitude, toLongitude: place.longitude)
            if best == nil || distance < best!.1 { best = (place, distance) }
        }
        return best
    }

    @Test("the bundled table holds all 34,006 GeoNames places, quoted names included")
    func bundledTable() throws {
        #expect(gazetteer.places.count == 34_006)
        #expect(gazetteer.places.first?.name == "Shanghai")
        let mianzhu = try #require(gazetteer.places.first { $0.name == "Mianzhu, Deyang, Sichuan" })
        #expect(mianzhu.country == "China")
        let kralendijk = try #require(gazetteer.places.first { $0.name == "Kralendijk" })
        #expect(kralendijk.country == "Bonaire, Saint Eustatius and Saba")
        #expect(gazetteer.places.contains { $0.name == "São Paulo" })
    }

    @Test("a point in Ann Arbor is in Ann Arbor, Michigan, United States")
    func annArbor() throws {
        let match = try #require(gazetteer.nearest(latitude: 42.2808, longitude: -83.7430))
        #expect(match.place.name == "Ann Arbor")
        #expect(match.distanceKilometres < 1)
        #expect(gazetteer.placeName(latitude: 42.2808, longitude: -83.7430) == "Ann Arbor, Michigan, United States")
        #expect(gazetteer.describe(latitude: 42.2808, longitude: -83.7430) == "in Ann Arbor, Michigan, United States")
    }

    @Test("a point a few kilometres out of town is near it, with the distance")
    func nearATown() throws {
        // About 4 km north of Ann Arbor's centre, still closer to it than to any other town.
        let north = GreatCircle.destination(latitude: 42.2776, longitude: -83.7409, distanceKilometres: 4.2, bearingDegrees: 0)
        let match = try #require(gazetteer.nearest(latitude: north.latitude, longitude: north.longitude))
        #expect(match.place.name == "Ann Arbor")
        #expect(
            gazetteer.describe(latitude: north.latitude, longitude: north.longitude)
                == "near Ann Arbor, Michigan, United States (4.2 km)")
    }

    @Test("mid-ocean has no place name and is described as the middle of nowhere")
    func midOcean() throws {
        // Point Nemo, the ocean pole of inaccessibility.
        #expect(gazetteer.placeName(latitude: -48.8767, longitude: -123.3933) == nil)
        let description = gazetteer.describe(latitude: -48.8767, longitude: -123.3933)
        #expect(description.hasPrefix("in the middle of nowhere: "))
        #expect(description.contains(" km from the nearest town ("))
        let match = try #require(gazetteer.nearest(latitude: -48.8767, longitude: -123.3933))
        #expect(match.distanceKilometres > 2_000)
    }

    @Test("the grid search finds the same nearest place as checking every place, at the edges of the map too")
    func matchesBruteForce() throws {
        var points: [(Double, Double)] = [
            (90, 0), (-90, 0), (90, 180), (-90, -180), (0, 180), (0, -180), (-17.8, 180), (-17.8, -180),
            (-17.8, 179.999), (-17.8, -179.999), (65.5, -168.9), (65.5, 179.9), (89.99, 45), (-89.99, 45),
            (78.2, 15.6), (-54.8, -68.3), (0, 0), (51.5, -0.001), (51.5, 0.001), (-48.8767, -123.3933),
        ]
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<120 {
            points.append((generator.unit() * 180 - 90, generator.unit() * 360 - 180))
        }
        for (latitude, longitude) in points {
            let found = try #require(gazetteer.nearest(latitude: latitude, longitude: longitude))
            let expected = try #require(bruteForceNearest(latitude: latitude, longitude: longitude))
            // Equal distances may name a different town; the distance is what must agree.
            #expect(abs(found.distanceKilometres - expected.1) < 1e-6, "at \(latitude), \(longitude)")
        }
    }

    @Test("places across the antimeridian are found from either side")
    func antimeridian() throws {
        // Taveuni, Fiji lies on the antimeridian; a point just west of 180 must see towns just east of it.
        let east = try #require(gazetteer.nearest(latitude: -16.8, longitude: -179.99))
        let west = try #require(gazetteer.nearest(latitude: -16.8, longitude: 179.99))
        #expect(east.place == west.place)
        #expect(east.place.country == "Fiji")
        let wrapped = try #require(gazetteer.nearest(latitude: -16.8, longitude: 180.01))
        #expect(wrapped.place == east.place)
    }

    @Test("out-of-range numbers are clamped and wrapped, and non-finite ones have no answer")
    func oddInputs() throws {
        #expect(gazetteer.nearest(latitude: 1_000, longitude: 0) == gazetteer.nearest(latitude: 90, longitude: 0))
        let wrapped = try #require(gazetteer.nearest(latitude: 42.2808, longitude: -83.7430 + 720))
        #expect(wrapped.place.name == "Ann Arbor")
        #expect(gazetteer.nearest(latitude: 0, longitude: 1e300) != nil)
        #expect(gazetteer.nearest(latitude: .nan, longitude: 0) == nil)
        #expect(gazetteer.nearest(latitude: 0, longitude: .infinity) == nil)
        #expect(gazetteer.placeName(latitude: .nan, longitude: .nan) == nil)
        #expect(gazetteer.describe(latitude: .infinity, longitude: 0) == "at an invalid position")
        for latitude in [-90.0, 90, -89.9999, 89.9999] {
            for longitude in [-180.0, 180, -179.9999, 179.9999, 0] {
                #expect(!gazetteer.describe(latitude: latitude, longitude: longitude).isEmpty)
            }
        }
    }

    @Test("several nearest places come closest first, within the limit asked for")
    func severalNearest() throws {
        let matches = gazetteer.nearest(latitude: 48.8566, longitude: 2.3522, count: 10)
        #expect(matches.count == 10)
        #expect(matches.contains { $0.place.name == "Paris" })
        #expect(zip(matches, matches.dropFirst()).allSatisfy { $0.distanceKilometres <= $1.distanceKilometres })
        let close = gazetteer.nearest(latitude: 48.8566, longitude: 2.3522, count: 1_000, within: 5)
        #expect(!close.isEmpty)
        #expect(close.allSatisfy { $0.distanceKilometres <= 5 })
        #expect(gazetteer.nearest(latitude: -48.8767, longitude: -123.3933, count: 5, within: 300).isEmpty)
    }

    @Test("a city district is named by its city when the city's centre is barely farther")
    func districtsNameTheirCity() throws {
        // By Notre-Dame: the nearest GeoNames place is the 4th arrondissement, but people say Paris.
        let nearest = try #require(gazetteer.nearest(latitude: 48.8566, longitude: 2.3522))
        #expect(nearest.place.name != "Paris")
        #expect(gazetteer.town(latitude: 48.8566, longitude: 2.3522)?.place.name == "Paris")
        #expect(gazetteer.describe(latitude: 48.8566, longitude: 2.3522) == "in Paris, Île-de-France, France")
        // A town of its own next to a bigger one keeps its name.
        #expect(gazetteer.placeName(latitude: 42.2411, longitude: -83.6130) == "Ypsilanti, Michigan, United States")
    }

    @Test("place names leave out an empty or repeated region")
    func displayNames() {
        func name(_ name: String, _ admin1: String, _ country: String) -> String {
            Place(name: name, countryCode: "XX", country: country, admin1: admin1, latitude: 0, longitude: 0, population: 1).displayName
        }
        #expect(name("Ann Arbor", "Michigan", "United States") == "Ann Arbor, Michigan, United States")
        #expect(name("Singapore", "", "Singapore") == "Singapore")
        #expect(name("Shanghai", "Shanghai", "China") == "Shanghai, China")
        #expect(name("Gibraltar", "", "Gibraltar") == "Gibraltar")
    }

    @Test("distances read as tenths under 10 km and whole kilometres with separators above")
    func distanceFormat() {
        #expect(Gazetteer.formatKilometres(0) == "0.0 km")
        #expect(Gazetteer.formatKilometres(4.24) == "4.2 km")
        #expect(Gazetteer.formatKilometres(9.96) == "10 km")
        #expect(Gazetteer.formatKilometres(37.4) == "37 km")
        #expect(Gazetteer.formatKilometres(2_140.3) == "2,140 km")
        #expect(Gazetteer.formatKilometres(20_015.1) == "20,015 km")
    }

    @Test("an empty gazetteer answers nothing without failing")
    func emptyGazetteer() {
        let empty = Gazetteer(places: [])
        #expect(empty.nearest(latitude: 0, longitude: 0) == nil)
        #expect(empty.placeName(latitude: 0, longitude: 0) == nil)
        #expect(empty.describe(latitude: 0, longitude: 0) == "far from any known place")
    }

    @Test("a gazetteer file with a wrong header or a bad row is refused with the line")
    func badFiles() {
        #expect(throws: PhotoSourceError.self) { try Gazetteer(csv: Array("city,lat,lon\nX,1,2\n".utf8)) }
        let header = "name,country_code,country,admin1,lat,lon,population\n"
        #expect(throws: PhotoSourceError("places.csv line 3 is not a valid place")) {
            try Gazetteer(csv: Array((header + "A,AA,Aland,,1,2,3\nB,BB,Bland,,95,2,3\n").utf8))
        }
        #expect(throws: PhotoSourceError.self) { try Gazetteer(csv: Array((header + "\"A,AA,Aland,,1,2,3\n").utf8)) }
        let one = try? Gazetteer(csv: Array((header + "A,AA,Aland,,1,2,3\r\n").utf8))
        #expect(one?.places.count == 1)
    }
}
