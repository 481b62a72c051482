import Testing

@testable import Client

@Suite struct MapProjectionTests {
    /// One degree per dot: the whole world on 360 x 180 dots.
    private let world = MapProjection(centerLatitude: 0, centerLongitude: 0, zoom: 1, width: 360, height: 180)

    @Test func atZoomOneTheWholeWorldSpansTheWidth() {
        #expect(world.degreesPerDot == 1)
        #expect(world.longitudeSpan == -180...180)
        #expect(world.latitudeSpan == -90...90)
    }

    @Test func knownPlacesLandOnTheExpectedDots() {
        #expect(world.dot(latitude: 0, longitude: 0)! == (180, 90))
        #expect(world.dot(latitude: 89.5, longitude: -179.5)! == (0, 0))
        // Ann Arbor: 96.26 dots from the left edge, 47.72 from the top.
        #expect(world.dot(latitude: 42.28, longitude: -83.74)! == (96, 47))
        // Sydney, south and east.
        #expect(world.dot(latitude: -33.87, longitude: 151.21)! == (331, 123))
    }

    @Test func zoomTwoShowsHalfTheLongitudes() {
        let zoomed = MapProjection(centerLatitude: 0, centerLongitude: 0, zoom: 2, width: 360, height: 180)
        #expect(zoomed.degreesPerDot == 0.5)
        #expect(zoomed.longitudeSpan == -90...90)
        #expect(zoomed.latitudeSpan == -45...45)
        #expect(zoomed.dot(latitude: 0, longitude: 100) == nil)
        #expect(zoomed.dot(latitude: 0, longitude: 89)! == (358, 90))
    }

    @Test func theCentreIsTheMiddleDotAtAnyZoom() {
        for zoom in [1.0, 2, 4, 7.5, 64] {
            let view = MapProjection(centerLatitude: 42.28, centerLongitude: -83.74, zoom: zoom, width: 156, height: 80)
            #expect(view.dot(latitude: 42.28, longitude: -83.74)! == (78, 40), "zoom \(zoom)")
            let span = view.longitudeSpan
            #expect(abs((span.upperBound - span.lowerBound) - 360 / zoom) < 1e-9)
        }
    }

    @Test func zoomBelowOneIsTakenAsOne() {
        #expect(MapProjection(centerLatitude: 0, centerLongitude: 0, zoom: 0.1, width: 10, height: 10).zoom == 1)
    }

    @Test func aPlaceAcrossTheAntimeridianShowsNextToACentreNearIt() {
        let view = MapProjection(centerLatitude: -17, centerLongitude: 179, zoom: 8, width: 160, height: 80)
        // 2° east of the centre, at 0.28125° per dot: about 7 dots right of the middle.
        #expect(view.nearestCopy(of: -179) == 181)
        #expect(view.dot(latitude: -17, longitude: -179)! == (87, 40))
        #expect(view.nearestCopy(of: 178) == 178)
    }

    @Test func outlinesNearTheAntimeridianAreDrawnOnBothSides() {
        let view = MapProjection(centerLatitude: 0, centerLongitude: 170, zoom: 1, width: 360, height: 180)
        #expect(view.longitudeSpan == -10...350)
        #expect(view.copyOffsets(forLongitudes: -20...(-5)) == [0, 360])
        #expect(view.copyOffsets(forLongitudes: -180...(-170)) == [360])
        #expect(view.copyOffsets(forLongitudes: 100...120) == [0])
        #expect(view.copyOffsets(forLongitudes: -60...(-30)) == [360])
        let zoomed = MapProjection(centerLatitude: 0, centerLongitude: 0, zoom: 8, width: 360, height: 180)
        #expect(zoomed.copyOffsets(forLongitudes: 100...120) == [])
    }

    @Test("a click on a cell lands on the place under its middle")
    func aClickLandsUnderTheMiddleOfItsCell() {
        // Cell (90, 22) covers dots 180-181 across and 88-91 down: its middle is dot (181, 90).
        let place = world.place(atColumn: 90, row: 22)
        #expect(place.latitude == 0 && place.longitude == 1)
        let corner = world.place(atColumn: 0, row: 0)
        #expect(corner.latitude == 88 && corner.longitude == -179)
    }

    @Test("the cell a place is drawn in and the place a click on that cell gives agree")
    func cellsAndPlacesAgree() {
        let view = MapProjection(centerLatitude: 42.28, centerLongitude: -83.74, zoom: 4, width: 156, height: 80)
        for (column, row) in [(0, 0), (39, 10), (77, 19), (12, 7)] {
            let place = view.place(atColumn: column, row: row)
            #expect(view.cell(latitude: place.latitude, longitude: place.longitude)! == (column, row), "cell \(column), \(row)")
        }
        #expect(world.cell(latitude: 42.28, longitude: -83.74)! == (48, 11), "dot (96, 47)")
        #expect(
            MapProjection(centerLatitude: 0, centerLongitude: 0, zoom: 2, width: 360, height: 180).cell(latitude: 0, longitude: 100) == nil)
    }

    @Test("a click beyond the antimeridian gives a longitude within -180...180")
    func aClickBeyondTheAntimeridianWraps() {
        let view = MapProjection(centerLatitude: 0, centerLongitude: 170, zoom: 1, width: 360, height: 180)
        // The right edge shows 349°E, which is 11°W.
        #expect(view.place(atColumn: 179, row: 22).longitude == -11)
        let west = MapProjection(centerLatitude: 0, centerLongitude: -170, zoom: 1, width: 360, height: 180)
        #expect(west.place(atColumn: 0, row: 22).longitude == 11)
    }

    @Test("a longitude is wrapped by whole turns into -180...180")
    func longitudesWrap() {
        #expect(MapProjection.wrapped(190) == -170)
        #expect(MapProjection.wrapped(-190) == 170)
        #expect(MapProjection.wrapped(725) == 5)
        #expect(MapProjection.wrapped(180) == 180)
        #expect(MapProjection.wrapped(-83.74) == -83.74)
    }

    @Test("a pan moves the centre by an eighth of the view, whatever the zoom")
    func aPanIsAnEighthOfTheView() {
        #expect(world.panStep == 45)
        #expect(abs(MapProjection(centerLatitude: 0, centerLongitude: 0, zoom: 4, width: 156, height: 80).panStep - 11.25) < 1e-9)
    }
}
