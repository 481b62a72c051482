import Foundation
import Wire

/// pin add LAT LON, pin rm ID, pins.
enum PinCommands {
    static func add(_ context: CommandContext) throws(ClientError) {
        let latitude = try number(context.parsed.positional(0), name: "LAT", context: context)
        let longitude = try number(context.parsed.positional(1), name: "LON", context: context)
        try SnapshareSession.checkCoordinates(latitude: latitude, longitude: longitude)
        let session = try context.authenticated()
        let pin = try session.addPin(latitude: latitude, longitude: longitude)
        if context.json {
            context.printJSON(AlbumPresenter.json(pin))
            return
        }
        let place = AlbumPresenter.coordinates(pin.latitude, pin.longitude)
        context.console.out("Dropped pin \(pin.id) at \(place).")
        switch pin.albumState {
        case .downloading:
            let expected = pin.expected > 0 ? " (\(pin.expected) photo\(pin.expected == 1 ? "" : "s") expected)" : ""
            context.console.out("Its album is downloading on the server\(expected); watch it with: snapshare album \(pin.id) --wait")
        case .ready:
            context.console.out("Its album is ready (\(pin.done) photos): snapshare album \(pin.id)")
        case .empty:
            context.console.out("No Images: the photo source has no photos near this place.")
        case .failed:
            context.console.out("Its album could not be fetched; see why with: snapshare album \(pin.id)")
        }
    }

    static func remove(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "ID")
        let session = try context.authenticated()
        try session.deletePin(id)
        if context.json {
            context.printJSON(.object([("id", .int(Int64(bitPattern: id))), ("deleted", .bool(true))]))
        } else {
            context.console.out("Removed pin \(id) with its album.")
        }
    }

    static func list(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let pins = try session.pins()
        if context.json {
            context.printJSON(.array(pins.map(AlbumPresenter.json)))
            return
        }
        guard !pins.isEmpty else {
            context.console.out("No pins yet. Drop one with: snapshare pin add LAT LON   (e.g. snapshare pin add 48.8584 2.2945)")
            return
        }
        // The server's clock, read a moment ago at Hello, so "5m ago" is right even when ours is off.
        context.console.out(AlbumPresenter.pinsTable(pins, now: session.welcome.serverTime))
    }

    /// A decimal number typed by the user: `42.28`, `-83.74`, `1e-3`. Words Swift would also
    /// take as numbers (`nan`, `inf`, `0x1p3`) are refused, and a decimal comma gets a hint.
    static func number(_ text: String?, name: String, context: CommandContext) throws(ClientError) -> Double {
        guard let text, !text.isEmpty else { throw context.usage("missing \(name)") }
        let allowed = Set("0123456789+-.eE")
        guard text.allSatisfy(allowed.contains), text.contains(where: \.isNumber), let value = Double(text), value.isFinite else {
            if text.contains(",") && Double(text.replacingOccurrences(of: ",", with: ".")) != nil {
                throw context.usage("\(name) '\(text)' is not a number; write decimals with a dot, as in 42.28")
            }
            throw context.usage("\(name) '\(text)' is not a number (expected decimal degrees, e.g. 42.28 or -83.74)")
        }
        return value
    }
}
