import Wire

/// Draws the world map with the user's pins: coastlines and borders as braille lines, each pin
/// as its marker (1-9, then A-Z, then •), and a legend from marker to pin.
struct MapRenderer: Sendable {
    /// A pin as the legend lists it.
    struct Entry: Sendable, Equatable {
        let marker: Character
        let pin: PinInfo
        /// Whether the pin lies inside the drawn view.
        let isVisible: Bool
    }

    /// The drawing and its legend.
    struct Drawing: Sendable {
        /// One line per row of cells.
        let lines: [String]
        let entries: [Entry]
        let projection: MapProjection
    }

    let world: WorldMap

    /// The marker of the pin at `index` in the list (0-based).
    static func marker(forIndex index: Int) -> Character {
        let markers = Array("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return index < markers.count ? markers[index] : "•"
    }

    /// Draws the view of `columns` x `rows` cells; `highlight` colours the pin markers.
    func draw(
        centerLatitude: Double, centerLongitude: Double, zoom: Double, columns: Int, rows: Int,
        pins: [PinInfo], highlight: (start: String, end: String)? = nil
    ) -> Drawing {
        var canvas = BrailleCanvas(columns: columns, rows: rows)
        let projection = MapProjection(
            centerLatitude: centerLatitude, centerLongitude: centerLongitude, zoom: zoom,
            width: canvas.dotWidth, height: canvas.dotHeight)
        for country in world.countries {
            for ring in country.rings where projection.showsLatitudes(ring.latitudes) {
                for offset in projection.copyOffsets(forLongitudes: ring.longitudes) {
                    draw(ring, offset: offset, projection: projection, on: &canvas)
                }
            }
        }
        var entries: [Entry] = []
        // Later pins are placed first so that, where pins share a cell, the lowest marker shows.
        var visible: [Int: Bool] = [:]
        for (index, pin) in pins.enumerated().reversed() {
            guard let dot = projection.dot(latitude: pin.latitude, longitude: pin.longitude) else { continue }
            visible[index] = canvas.label(BrailleCanvas.Label(Self.marker(forIndex: index)), atDotX: dot.x, y: dot.y)
        }
        for (index, pin) in pins.enumerated() {
            entries.append(Entry(marker: Self.marker(forIndex: index), pin: pin, isVisible: visible[index] ?? false))
        }
        return Drawing(lines: canvas.render(highlight: highlight), entries: entries, projection: projection)
    }

    private func draw(_ ring: WorldMap.Ring, offset: Double, projection: MapProjection, on canvas: inout BrailleCanvas) {
        let c = ring.coordinates
        guard ring.pointCount >= 2 else { return }
        var previous = projection.point(latitude: c[1], longitude: c[0] + offset)
        for index in 1..<ring.pointCount {
            let lon = c[2 * index]
            let lat = c[2 * index + 1]
            let next = projection.point(latitude: lat, longitude: lon + offset)
            if WorldMap.isDrawable(fromLongitude: c[2 * index - 2], toLongitude: lon) {
                canvas.line(from: previous, to: next)
            }
            previous = next
        }
    }
}
