import Foundation
import Imaging
import TerminalUI
import Wire

/// The map: the braille world with my pins numbered, a cross-hair at the centre. Arrows pan,
/// +/- zoom, and the view is saved on the server as it moves (at most every 0.7 s, and once more
/// on the way out). `p` or a click drops a pin; Enter or a click on a pin opens its album; `r`
/// shows a random pin's photo with its place description.
final class MapScreen: AppScreen {
    private enum Mode {
        case map
        case album(AlbumView)
        case random(picture: PictureCells?, description: String)
    }

    private unowned let app: AppModel
    private var world: WorldMap?
    private var view: MapState?
    private var pins: [PinInfo] = []
    private var selectedPin = 0
    private var mode = Mode.map
    /// The view moved and is not saved yet; when it last moved.
    private var unsaved: Date?
    private var saving = false
    /// The map as last laid out: where it sits and its projection, which pans and clicks use.
    private var drawing: MapRenderer.Drawing?
    private var mapArea = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Random Pin as last laid out: its description's lines, and where its photo goes.
    private var randomLines: [String] = []
    private var randomPicture = Rect(x: 0, y: 0, width: 0, height: 0)

    init(app: AppModel) {
        self.app = app
        do { world = try WorldMap.bundled() } catch { app.setStatus("The world map is missing: \(error)", isError: true) }
    }

    var keys: KeyTable<MapScreen> {
        switch mode {
        case .map: Self.mapKeys
        case .album: Self.albumKeys
        case .random: Self.randomKeys
        }
    }

    private static let mapKeys = KeyTable<MapScreen>([
        .init(
            "pan",
            cases: [
                .init([.key(.left), .character("h")]) { $0.pan(dx: -1, dy: 0) },
                .init([.key(.right), .character("l")]) { $0.pan(dx: 1, dy: 0) },
                .init([.key(.up), .character("k")]) { $0.pan(dx: 0, dy: -1) },
                .init([.key(.down), .character("j")]) { $0.pan(dx: 0, dy: 1) },
            ]),
        .init([.character("+"), .character("="), .wheelUp], "zoom in") { $0.zoom(by: 2) },
        .init([.character("-"), .character("_"), .wheelDown], "zoom out") { $0.zoom(by: 0.5) },
        .init([.character("p")], "drop a pin at the cross-hair") { $0.dropAtCentre() },
        .init(
            [.click], "drop a pin there; on a pin, open its album",
            event: { screen, event in
                guard case .mouse(let mouse) = event else { return false }
                screen.click(mouse)
                return true
            }),
        .init(
            "previous, next pin",
            cases: [
                .init([.character("[")]) { $0.selectPin(by: -1) },
                .init([.character("]")]) { $0.selectPin(by: 1) },
            ]),
        .init([.key(.enter)], "open the pin's album") { $0.openSelected() },
        .init([.character("x"), .key(.delete)], "delete the pin (asks first)") { $0.deleteSelected() },
        .init([.character("r")], "a random pin's photo and place") { $0.random() },
    ])

    /// The album's own keys, and the way back.
    private static let albumKeys = KeyTable<MapScreen>(
        AlbumView.keys.lifted { screen in if case .album(let album) = screen.mode { album } else { nil } }
            + [.init([.key(.escape), .key(.backspace)], "back to the map") { $0.backToMap() }])

    private static let randomKeys = KeyTable<MapScreen>([
        .init([.character("r")], "another random pin") { $0.random() },
        .init([.key(.escape), .key(.backspace)], "back to the map") { $0.mode = .map },
    ])

    func activate() {
        switch mode {
        case .album(let album): album.refresh()
        default: load()
        }
    }

    private func load() {
        app.request(
            retry: true, { session throws(ClientError) in (try session.mapState(), try session.pins()) },
            then: { [self] state, pins in
                // A view moved here and not yet saved wins over the stored one.
                if unsaved == nil { view = state }
                self.pins = pins
                selectedPin = min(selectedPin, max(0, pins.count - 1))
            })
    }

    func tick(now: Int64) {
        if case .album(let album) = mode { album.tick() }
        if let unsaved, Date().timeIntervalSince(unsaved) >= 0.7 { save() }
    }

    func finish() { save() }

    /// Saves the view if it moved; also called on the way out.
    func save() {
        guard let view, unsaved != nil, !saving else { return }
        unsaved = nil
        saving = true
        // The same view saved twice is saved once.
        app.request(
            retry: true,
            { session throws(ClientError) in
                try session.setMapState(latitude: view.centerLatitude, longitude: view.centerLongitude, zoom: view.zoom)
            }, then: { [self] _ in saving = false })
    }

    private func backToMap() {
        mode = .map
        load()
    }

    private func dropAtCentre() {
        guard let view else { return }
        drop(latitude: view.centerLatitude, longitude: view.centerLongitude)
    }

    /// The next (1) or previous (-1) pin, round the ends.
    private func selectPin(by step: Int) {
        guard !pins.isEmpty else { return }
        selectedPin = (selectedPin + step + pins.count) % pins.count
    }

    private func openSelected() {
        if pins.indices.contains(selectedPin) { openAlbum(pins[selectedPin]) }
    }

    private func pan(dx: Double, dy: Double) {
        guard var view, let drawing else { return }
        let step = drawing.projection.panStep
        view.centerLongitude = MapProjection.wrapped(view.centerLongitude + dx * step)
        view.centerLatitude = min(MapLimits.latitude.upperBound, max(MapLimits.latitude.lowerBound, view.centerLatitude - dy * step))
        moved(view)
    }

    private func zoom(by factor: Double) {
        guard var view else { return }
        view.zoom = min(MapLimits.zoom.upperBound, max(MapLimits.zoom.lowerBound, view.zoom * factor))
        moved(view)
    }

    private func moved(_ view: MapState) {
        self.view = view
        unsaved = unsaved ?? Date()
        app.setStatus(String(format: "Centre %.2f, %.2f · zoom %g", view.centerLatitude, view.centerLongitude, view.zoom))
    }

    /// A click on a pin opens its album; anywhere else on the map drops a pin there.
    private func click(_ mouse: MouseEvent) {
        guard let drawing, mapArea.contains(column: mouse.column, row: mouse.row) else { return }
        let column = mouse.column - mapArea.x
        let row = mouse.row - mapArea.y
        if let index = drawing.entries.firstIndex(where: { entry in
            guard entry.isVisible, let cell = drawing.projection.cell(latitude: entry.pin.latitude, longitude: entry.pin.longitude) else {
                return false
            }
            return cell == (column, row)
        }) {
            selectedPin = index
            openAlbum(pins[index])
            return
        }
        let (latitude, longitude) = drawing.projection.place(atColumn: column, row: row)
        guard MapLimits.latitude.contains(latitude) else {
            app.setStatus("That is off the map", isError: true)
            return
        }
        drop(latitude: latitude, longitude: longitude)
    }

    private func drop(latitude: Double, longitude: Double) {
        app.request(
            retry: false, { session throws(ClientError) in try session.addPin(latitude: latitude, longitude: longitude) },
            then: { [self] pin in
                pins.append(pin)
                selectedPin = pins.count - 1
                app.setStatus(
                    String(
                        format: "Pin %@ dropped at %.3f, %.3f: its album is downloading", String(MapRenderer.marker(forIndex: selectedPin)),
                        pin.latitude, pin.longitude))
            })
    }

    private func deleteSelected() {
        guard pins.indices.contains(selectedPin) else { return }
        let pin = pins[selectedPin]
        let marker = MapRenderer.marker(forIndex: selectedPin)
        app.confirm("Delete pin \(marker) and its album?") { [self] _, finish in
            app.request(
                retry: false, answering: finish, { session throws(ClientError) in try session.deletePin(pin.id) },
                then: { [self] in
                    app.setStatus("Deleted pin \(marker)")
                    load()
                })
        }
    }

    private func openAlbum(_ pin: PinInfo) {
        let album = AlbumView(app: app, pin: pin, marker: MapRenderer.marker(forIndex: pins.firstIndex(of: pin) ?? 0))
        mode = .album(album)
        album.refresh()
    }

    private func random() {
        let limits = app.welcome?.displayLimits ?? Welcome.largestDecoded
        app.request(
            retry: true,
            { session throws(ClientError) -> (RandomPinResult, RGBImage?) in
                let result = try session.randomPin()
                guard let photo = result.photo else { return (result, nil) }
                let image = try? ImageCodec.decode(try session.photo(photo.id).image, limits: limits)
                return (result, image)
            },
            then: { [self] result, image in
                guard result.pin != nil else {
                    app.setStatus("No pin has a photo yet: drop a pin first", isError: true)
                    return
                }
                mode = .random(picture: image.map(PictureCells.init), description: result.description)
            })
    }

    // MARK: Layout and drawing

    /// Renders the world for the view and the window (the braille lines and the projection),
    /// or lays out the album shown instead.
    func layout(in area: Rect) {
        switch mode {
        case .album(let album):
            album.layout(in: area)
        case .random(_, let description):
            // The place's description wrapped (a third of the screen at most), the photo under it.
            randomLines = TextWrap.lines(PrintableText.clean(description), width: area.width - 2, atMost: max(1, area.height / 3))
            let top = area.y + 1 + randomLines.count
            randomPicture = Rect(x: area.x, y: top, width: area.width, height: area.y + area.height - 1 - top)
        case .map:
            guard let world, let view else { return }
            mapArea = Rect(x: area.x, y: area.y, width: area.width, height: area.height - 1)
            drawing = MapRenderer(world: world).draw(
                centerLatitude: view.centerLatitude, centerLongitude: view.centerLongitude,
                zoom: view.zoom, columns: mapArea.width, rows: mapArea.height, pins: pins)
        }
    }

    var thumbnails: [KittyThumbnails.Placement] {
        switch mode {
        case .album(let album): album.thumbnails
        case .random(let picture?, _): [KittyThumbnails.Placement(picture: picture, area: randomPicture)]
        case .random, .map: []
        }
    }

    func draw(into grid: inout CellGrid, area: Rect) {
        switch mode {
        case .album(let album):
            album.draw(into: &grid, area: area)
            return
        case .random:
            grid.write("Random Pin", column: area.x + 1, row: area.y, style: Style(bold: true))
            for (index, line) in randomLines.enumerated() { grid.write(line, column: area.x + 1, row: area.y + 1 + index) }
            app.draw(thumbnails, into: &grid)
            grid.write("r another · Esc back to the map", column: area.x + 1, row: area.y + area.height - 1)
            return
        case .map:
            break
        }
        guard let view, let drawn = drawing else {
            grid.write("Loading the map…", column: area.x + 1, row: area.y)
            return
        }
        let colours = app.decorations
        let land = Style(foreground: colours.land)
        for (index, line) in drawn.lines.enumerated() {
            grid.write(line, column: mapArea.x, row: mapArea.y + index, style: land, width: mapArea.width)
        }
        for (index, entry) in drawn.entries.enumerated() where entry.isVisible {
            guard let cell = drawn.projection.cell(latitude: entry.pin.latitude, longitude: entry.pin.longitude) else { continue }
            let style = Style(
                foreground: index == selectedPin ? colours.selectedPin : colours.pin, bold: true,
                reverse: index == selectedPin)
            grid.write(String(entry.marker), column: mapArea.x + cell.column, row: mapArea.y + cell.row, style: style, width: 1)
        }
        grid.write(
            "✛", column: mapArea.x + mapArea.width / 2, row: mapArea.y + mapArea.height / 2,
            style: Style(foreground: colours.error, bold: true), width: 1)
        let selected =
            pins.indices.contains(selectedPin) ? "pin \(MapRenderer.marker(forIndex: selectedPin)) of \(pins.count)" : "no pins yet"
        let footer = String(
            format: "%.2f, %.2f · zoom %g · %@ · p drop · Enter album · r random · ? keys",
            view.centerLatitude, view.centerLongitude, view.zoom, selected)
        grid.write(footer, column: area.x + 1, row: area.y + area.height - 1, width: area.width - 2)
    }
}
