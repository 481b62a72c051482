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
}
