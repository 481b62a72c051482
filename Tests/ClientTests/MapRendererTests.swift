import Testing
import Wire

@testable import Client

@Suite struct MapRendererTests {
    private static let world = try! WorldMap.bundled()
    private let renderer = MapRenderer(world: MapRendererTests.world)

    private func pin(_ id: UInt64, _ latitude: Double, _ longitude: Double) -> PinInfo {
        PinInfo(id: id, latitude: latitude, longitude: longitude, createdAt: 0, albumState: .ready, expected: 20, done: 20)
    }

    private func character(_ lines: [String], row: Int, column: Int) -> Character {
        Array(lines[row])[column]
    }

    @Test func pinsAreNumberedWhereTheyAreOnTheWorld() {
        // 80 x 20 cells = 160 x 80 dots, 2.25° per dot, centred on 0, 0.
        let drawing = renderer.draw(
            centerLatitude: 0, centerLongitude: 0, zoom: 1, columns: 80, rows: 20,
            pins: [pin(7, 42.28, -83.74), pin(9, -33.87, 151.21)])
        #expect(drawing.lines.count == 20)
        #expect(drawing.lines.allSatisfy { $0.count == 80 })
        // Ann Arbor: dot (42, 21) is cell (21, 5); Sydney: dot (147, 55) is cell (73, 13).
        #expect(character(drawing.lines, row: 5, column: 21) == "1")
        #expect(character(drawing.lines, row: 13, column: 73) == "2")
        #expect(drawing.entries.map(\.marker) == ["1", "2"])
        #expect(drawing.entries.map(\.pin.id) == [7, 9])
        #expect(drawing.entries.allSatisfy { $0.isVisible })
    }

    @Test func coastlinesAreDrawnAndTheOpenPacificIsBlank() {
        let drawing = renderer.draw(centerLatitude: 0, centerLongitude: 0, zoom: 1, columns: 80, rows: 20, pins: [])
        let braille = drawing.lines.joined().unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }
        #expect(braille.count > 300, "the world's outlines leave many dots")
        // The equator crosses row 10; from 150°W to 100°W (columns 6 to 17) there is only sea.
        let equator = Array(drawing.lines[10])
        #expect(equator[6...17].allSatisfy { $0 == " " }, "\(String(equator))")
        // Africa's west coast at the equator is near 9°E (column 42).
        #expect(equator[41...43].contains { $0 != " " }, "\(String(equator))")
    }

    @Test func aZoomedViewLeavesFarPinsOffTheMapAndCentresItsPlace() {
        let drawing = renderer.draw(
            centerLatitude: 42.28, centerLongitude: -83.74, zoom: 8, columns: 60, rows: 20,
            pins: [pin(1, -33.87, 151.21), pin(2, 42.28, -83.74)])
        #expect(drawing.entries.map(\.isVisible) == [false, true])
        #expect(character(drawing.lines, row: 10, column: 30) == "2")
        #expect(!drawing.lines.joined().contains("1"))
    }

    @Test func theViewIsTheSameCentredOnEitherSideOfTheAntimeridian() {
        let east = renderer.draw(centerLatitude: -17, centerLongitude: 180, zoom: 1, columns: 80, rows: 20, pins: [])
        let west = renderer.draw(centerLatitude: -17, centerLongitude: -180, zoom: 1, columns: 80, rows: 20, pins: [])
        #expect(east.lines == west.lines)
        // Both halves of the map have land: Asia and Australia on the left, the Americas on the right.
        let left = east.lines.map { String($0.prefix(40)) }.joined()
        let right = east.lines.map { String($0.suffix(40)) }.joined()
        #expect(left.contains { $0 != " " } && right.contains { $0 != " " })
    }

    @Test func aPinJustAcrossTheAntimeridianIsDrawnNextToTheCentre() {
        let drawing = renderer.draw(
            centerLatitude: -17, centerLongitude: 179, zoom: 8, columns: 80, rows: 20,
            pins: [pin(1, -17, -179)])
        // 2° east at 0.28125° per dot: dot 87 of 160, cell 43; the centre row is 10.
        #expect(character(drawing.lines, row: 10, column: 43) == "1")
    }

    @Test func pinsSharingACellShowTheLowestMarkerAndAllStayInTheLegend() {
        let drawing = renderer.draw(
            centerLatitude: 0, centerLongitude: 0, zoom: 1, columns: 80, rows: 20,
            pins: [pin(1, 10, 10), pin(2, 10.1, 10.1)])
        #expect(drawing.lines.joined().contains("1"))
        #expect(!drawing.lines.joined().contains("2"))
        #expect(drawing.entries.allSatisfy { $0.isVisible })
    }

    @Test func markersRunFromDigitsToLettersToDots() {
        #expect(MapRenderer.marker(forIndex: 0) == "1")
        #expect(MapRenderer.marker(forIndex: 8) == "9")
        #expect(MapRenderer.marker(forIndex: 9) == "A")
        #expect(MapRenderer.marker(forIndex: 34) == "Z")
        #expect(MapRenderer.marker(forIndex: 35) == "•")
        #expect(MapRenderer.marker(forIndex: 1000) == "•")
    }

    @Test func highlightedMarkersAreWrappedInTheGivenCodes() {
        let drawing = renderer.draw(
            centerLatitude: 0, centerLongitude: 0, zoom: 1, columns: 80, rows: 20,
            pins: [pin(1, 42.28, -83.74)], highlight: ("\u{1B}[1;31m", "\u{1B}[0m"))
        #expect(drawing.lines[5].contains("\u{1B}[1;31m1\u{1B}[0m"))
    }
}

@Suite struct MapCommandLayoutTests {
    static func pin(_ id: UInt64) -> PinInfo {
        PinInfo(id: id, latitude: Double(id), longitude: Double(id) * 3, createdAt: 0, albumState: .ready, expected: 21, done: 21)
    }

    @Test(arguments: [0, 3, 40])
    func theMapWithItsTitleAndLegendFitsAnEightyByTwentyFourTerminal(pins count: Int) throws {
        let world = try WorldMap.bundled()
        let text = MapCommand.render(
            view: MapState(centerLatitude: 0, centerLongitude: 0, zoom: 1), pins: (0..<count).map { Self.pin(UInt64($0 + 1)) },
            world: world, size: (80, 24), onTerminal: true, colour: false)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 23, "one line stays for the prompt: \(lines.count) lines")
        #expect(lines.first?.hasPrefix("World map") == true)
        #expect(lines.allSatisfy { TextTable.displayWidth(of: String($0)) <= 80 })
    }
}
