import Testing

@testable import Client

@Suite struct WorldMapTests {
    @Test func theBundledOutlinesHave177CountriesOfSoundRings() throws {
        let world = try WorldMap.bundled()
        #expect(world.countries.count == 177)
        let names = Set(world.countries.map(\.name))
        #expect(names.isSuperset(of: ["Fiji", "United States of America", "Australia", "Antarctica", "Russia"]))
        let rings = world.countries.flatMap(\.rings)
        #expect(rings.allSatisfy { $0.pointCount >= 4 && $0.coordinates.count % 2 == 0 })
        #expect(rings.reduce(0) { $0 + $1.pointCount } > 10_000)
        #expect(rings.allSatisfy { $0.longitudes.lowerBound >= -180 && $0.longitudes.upperBound <= 180 })
        #expect(rings.allSatisfy { $0.latitudes.lowerBound >= -90 && $0.latitudes.upperBound <= 90 })
    }

    @Test func aPolygonAndAMultiPolygonAreBothRead() throws {
        let text = """
            {"type":"FeatureCollection","features":[
              {"type":"Feature","properties":{"name":"A"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}},
              {"type":"Feature","properties":{"name":"B"},"geometry":{"type":"MultiPolygon",\
            "coordinates":[[[[2,2],[3,2],[2,2]]],[[[5,-5],[6,-6.5],[5,-5]]]]}},
              {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}
            ]}
            """
        let world = try WorldMap(geoJSON: Array(text.utf8))
        #expect(world.countries.map(\.name) == ["A", "B"])
        #expect(world.countries[0].rings[0].coordinates == [0, 0, 1, 0, 1, 1, 0, 0])
        #expect(world.countries[1].rings.count == 2)
        #expect(world.countries[1].rings[1].latitudes == -6.5...(-5))
        #expect(world.countries[1].rings[1].longitudes == 5...6)
    }

    @Test(arguments: [
        ("not json", "not JSON"),
        (#"{"type":"Feature"}"#, "not a GeoJSON FeatureCollection"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature"}]}"#, "no geometry"),
        (
            #"{"type":"FeatureCollection","features":[{"geometry":{"type":"Polygon","coordinates":[[[0,"x"]]]}}]}"#,
            "not [longitude, latitude]"
        ),
        (
            #"{"type":"FeatureCollection","features":[{"geometry":{"type":"Polygon","coordinates":[[[0,91]]]}}]}"#,
            "not [longitude, latitude]"
        ),
        (#"{"type":"FeatureCollection","features":[{"geometry":{"type":"Polygon","coordinates":[[]]}}]}"#, "not a list of positions"),
        (
            #"{"type":"FeatureCollection","features":[{"geometry":{"type":"MultiPolygon","coordinates":3}}]}"#,
            "MultiPolygon without coordinates"
        ),
    ])
    func malformedDocumentsAreRefusedWithAReason(document: String, reason: String) {
        do {
            _ = try WorldMap(geoJSON: Array(document.utf8))
            Issue.record("accepted \(document)")
        } catch {
            #expect(error.description.contains(reason), "\(error.description)")
        }
    }

    @Test func seamsAtTheAntimeridianAreNotCoastlines() {
        #expect(!WorldMap.isDrawable(fromLongitude: 180, toLongitude: 180))
        #expect(!WorldMap.isDrawable(fromLongitude: -180, toLongitude: -180))
        #expect(!WorldMap.isDrawable(fromLongitude: -180, toLongitude: 180))
        #expect(!WorldMap.isDrawable(fromLongitude: 179.5, toLongitude: -179.5))
        #expect(WorldMap.isDrawable(fromLongitude: 179.41, toLongitude: 180))
        #expect(WorldMap.isDrawable(fromLongitude: 10, toLongitude: 10))
    }
}
