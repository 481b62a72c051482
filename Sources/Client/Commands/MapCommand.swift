import Foundation
import TerminalUI
import Wire

/// map [--center LAT,LON] [--zoom Z]: the world with my pins, at the view saved on the server.
enum MapCommand {
    static func run(_ context: CommandContext) throws(ClientError) {
        let center = try context.parsed.string("--center").map { text throws(ClientError) in try parseCenter(text, context: context) }
        let zoom = try context.parsed.string("--zoom").map { text throws(ClientError) in try parseZoom(text, context: context) }
        if let center { try SnapshareSession.checkCoordinates(latitude: center.latitude, longitude: center.longitude) }

        let session = try context.authenticated()
        var view = try session.mapState()
        if center != nil || zoom != nil {
            view = try session.setMapState(
                latitude: center?.latitude ?? view.centerLatitude,
                longitude: center?.longitude ?? view.centerLongitude,
                zoom: zoom ?? view.zoom)
        }
        if context.json {
            context.printJSON(
                .object([
                    ("center", .object([("latitude", .double(view.centerLatitude)), ("longitude", .double(view.centerLongitude))])),
                    ("zoom", .double(view.zoom)),
                ]))
            return
        }
        let world: WorldMap
        do { world = try WorldMap.bundled() } catch { throw ClientError(.local, error.description) }
        let pins = try session.pins()
        let onTerminal = context.console.outputIsTerminal
        context.console.raw(
            render(
                view: view, pins: pins, world: world, size: Terminal.sizeOrDefault(of: 1), onTerminal: onTerminal,
                colour: ColorDepth.decorationsColored(context.environment, onTerminal: onTerminal)))
    }

    /// The map as printed on a terminal of `size`: on a terminal everything, title included,
    /// fits above the prompt's line, so nothing scrolls off.
    static func render(
        view: MapState, pins: [PinInfo], world: WorldMap, size: (columns: Int, rows: Int),
        onTerminal: Bool, colour: Bool
    ) -> String {
        let columns = max(10, size.columns - 2)
        // Title, frame top and bottom, hint, the prompt's line after it; the legend gets at most
        // a third of a terminal, plus a line saying how many it left out.
        let legendRows = pins.isEmpty ? 1 : (onTerminal ? min(pins.count, max(1, size.rows / 3)) : pins.count)
        let leftOut = pins.count > legendRows ? 1 : 0
        let available = max(4, size.rows - 5 - legendRows - leftOut)
        // No taller than the world at this zoom: 180° of latitude is width * zoom / 2 dots.
        // Clamped as the server clamps it, so an odd saved value cannot overflow the sums below.
        let zoom = min(max(1, view.zoom), MapLimits.zoom.upperBound)
        let worldRows = Int((Double(columns * 2) * zoom / 2 / 4).rounded(.up))
        let rows = max(4, min(available, worldRows))
        let drawing = MapRenderer(world: world).draw(
            centerLatitude: view.centerLatitude, centerLongitude: view.centerLongitude, zoom: zoom,
            columns: columns, rows: rows, pins: pins, highlight: colour ? ("\u{1B}[1;31m", "\u{1B}[0m") : nil)

        var lines: [String] = []
        let count = "\(pins.count) pin\(pins.count == 1 ? "" : "s")"
        lines.append(
            "World map · centre \(AlbumPresenter.coordinates(view.centerLatitude, view.centerLongitude)) "
                + "· zoom \(MapLimits.describe(view.zoom)) · \(count)"
        )
        lines.append("┌" + String(repeating: "─", count: columns) + "┐")
        lines += drawing.lines.map { "│" + $0 + "│" }
        lines.append("└" + String(repeating: "─", count: columns) + "┘")
        if pins.isEmpty {
            lines.append("No pins yet. Drop one with: snapshare pin add LAT LON")
        } else {
            var table = TextTable(columns: [
                .init(""), .init("PIN", alignment: .right), .init("LAT", alignment: .right),
                .init("LON", alignment: .right), .init("ALBUM"), .init(""),
            ])
            table.showsHeader = false
            let shown = drawing.entries.prefix(legendRows)
            for entry in shown {
                let pin = entry.pin
                table.append([
                    String(entry.marker), "pin \(pin.id)", AlbumPresenter.decimal(pin.latitude), AlbumPresenter.decimal(pin.longitude),
                    AlbumPresenter.summary(state: pin.albumState, expected: pin.expected, done: pin.done),
                    entry.isVisible ? "" : "(off the map)",
                ])
            }
            lines.append(table.render())
            if shown.count < drawing.entries.count {
                lines.append("… and \(drawing.entries.count - shown.count) more (snapshare pins lists them all)")
            }
        }
        lines.append("Move: snapshare map --center LAT,LON --zoom Z (1 = whole world)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `LAT,LON`, e.g. `42.28,-83.74` (spaces after the comma allowed).
    static func parseCenter(_ text: String, context: CommandContext) throws(ClientError) -> (latitude: Double, longitude: Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2 else {
            throw context.usage("--center takes LAT,LON in decimal degrees, e.g. --center 42.28,-83.74; got '\(text)'")
        }
        return (
            try PinCommands.number(parts[0], name: "the --center latitude", context: context),
            try PinCommands.number(parts[1], name: "the --center longitude", context: context)
        )
    }

    static func parseZoom(_ text: String, context: CommandContext) throws(ClientError) -> Double {
        let zoom = try PinCommands.number(text, name: "--zoom", context: context)
        if let problem = MapLimits.zoomProblem(zoom) { throw ClientError(.rejected, problem + " (1 is the whole world)") }
        return zoom
    }
}
