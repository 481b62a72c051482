import Crypto
import JSON
import Wire

/// How pins, albums and photos look in text and in JSON.
enum AlbumPresenter {
    // MARK: JSON

    static func json(_ pin: PinInfo) -> JSONValue {
        .object([
            ("id", .int(Int64(bitPattern: pin.id))),
            ("latitude", .double(pin.latitude)),
            ("longitude", .double(pin.longitude)),
            ("created_at", .string(Timestamp.iso8601(pin.createdAt))),
            ("state", .string(pin.albumState.name)),
            ("expected", .int(Int64(pin.expected))),
            ("done", .int(Int64(pin.done))),
        ])
    }

    static func json(_ photo: PhotoInfo) -> JSONValue {
        .object([
            ("id", .int(Int64(bitPattern: photo.id))),
            ("pin_id", .int(Int64(bitPattern: photo.pinID))),
            ("position", .int(Int64(photo.position))),
            ("state", .string(name(photo.state))),
            ("title", .string(photo.title)),
            ("place", .string(photo.place)),
            ("tags", JSONConvention.tags(photo.tags)),
            ("latitude", .double(photo.latitude)),
            ("longitude", .double(photo.longitude)),
            ("width", .int(Int64(photo.width))),
            ("height", .int(Int64(photo.height))),
            ("bytes", .int(Int64(photo.byteCount))),
        ])
    }

    static func json(_ album: Album) -> JSONValue {
        .object([
            ("pin_id", .int(Int64(bitPattern: album.pinID))),
            ("state", .string(album.state.name)),
            ("expected", .int(Int64(album.expected))),
            ("done", .int(Int64(album.done))),
            ("error", .string(album.error)),
            ("photos", .array(album.photos.map(json))),
        ])
    }

    static func json(_ random: RandomPinResult) -> JSONValue {
        .object([
            ("pin", random.pin.map(json) ?? .null),
            ("description", .string(random.description)),
            ("photo", random.photo.map(json) ?? .null),
        ])
    }

    static func name(_ state: PhotoState) -> String {
        switch state {
        case .pending: "pending"
        case .ready: "ready"
        case .failed: "failed"
        }
    }

    // MARK: Text

    /// `-33.87, 151.21`: the form `pin add` takes, at most 5 decimals (about a metre).
    static func coordinates(_ latitude: Double, _ longitude: Double) -> String {
        "\(decimal(latitude)), \(decimal(longitude))"
    }

    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        guard abs(value) < 1e9 else { return String(value) }
        let scaled = (value * 100_000).rounded()
        let whole = Int64(scaled / 100_000)
        var fraction = String(Int64(abs(scaled)) % 100_000)
        fraction = String(repeating: "0", count: 5 - fraction.count) + fraction
        while fraction.last == "0" { fraction.removeLast() }
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// `downloading 7/20`, `ready (20 photos)`, `empty (No Images)`, `failed`.
    static func summary(state: AlbumState, expected: UInt32, done: UInt32, photoCount: Int? = nil) -> String {
        let count = photoCount ?? Int(done)
        switch state {
        case .downloading: return "downloading \(done)/\(expected)"
        case .ready: return "ready (\(count) photo\(count == 1 ? "" : "s"))"
        case .empty: return "empty (No Images)"
        case .failed: return "failed"
        }
    }

    /// The pins table: id, coordinates, album state and progress, when dropped.
    static func pinsTable(_ pins: [PinInfo], now: Int64) -> String {
        var table = TextTable(columns: [
            .init("ID", alignment: .right), .init("LAT", alignment: .right),
            .init("LON", alignment: .right), .init("ALBUM"),
            .init("PHOTOS", alignment: .right), .init("DROPPED"),
        ])
        for pin in pins {
            table.append([
                "\(pin.id)", decimal(pin.latitude), decimal(pin.longitude), pin.albumState.name,
                "\(pin.done)/\(pin.expected)", TimeAgo.describe(pin.createdAt, now: now),
            ])
        }
        return table.render()
    }

    /// More placeholders than any photo source fills in one album (Flickr's geo searches stop at 250).
    static let maximumPlaceholders = 4_000

    /// One cell per photo slot: `[■]` ready, `[…]` still coming, `[✗]` failed; wrapped to `width`.
    static func placeholderGrid(_ album: Album, width: Int) -> [String] {
        var cells = album.photos.sorted { $0.position < $1.position }.map { photo -> String in
            switch photo.state {
            case .pending: "[…]"
            case .ready: "[■]"
            case .failed: "[✗]"
            }
        }
        // A server may list fewer slots than it expects while the list is still arriving. The
        // count comes from the server, so it is bounded before anything is allocated for it.
        let expected = min(Int(album.expected), maximumPlaceholders)
        if album.state == .downloading && cells.count < expected {
            cells += Array(repeating: "[…]", count: expected - cells.count)
        }
        let perLine = max(1, width / 3)
        return stride(from: 0, to: cells.count, by: perLine).map { cells[$0..<min($0 + perLine, cells.count)].joined() }
    }

    /// The album as text: a heading, the placeholder grid and one row per slot. Failed albums
    /// are the caller's to report, as an error.
    static func text(_ album: Album, width: Int) -> String {
        var lines = [
            "Album of pin \(album.pinID): "
                + summary(state: album.state, expected: album.expected, done: album.done, photoCount: album.photos.count)
        ]
        if album.state == .empty {
            lines.append("No Images")
            return lines.joined(separator: "\n") + "\n"
        }
        if album.state == .ready && album.photos.isEmpty {
            lines.append("No photos left in this album; get a different set with: snapshare album new \(album.pinID)")
            return lines.joined(separator: "\n") + "\n"
        }
        lines += placeholderGrid(album, width: width)
        if !album.photos.isEmpty {
            let shared = sharedTags(album.photos)
            if !shared.isEmpty { lines += ["", "Every photo is tagged: " + clip(shared.joined(separator: " "), max(20, width - 23))] }
            lines += ["", photoTable(album.photos, width: width)]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The tags every ready photo of an album carries (a source tags each photo with its
    /// place), in the order the first photo lists them; the table shows each photo's own.
    static func sharedTags(_ photos: [PhotoInfo]) -> [String] {
        let ready = photos.filter { $0.state == .ready }
        guard ready.count > 1, let first = ready.first else { return [] }
        let others = ready.dropFirst().map { Set($0.tags.split(whereSeparator: \.isWhitespace).map(String.init)) }
        return first.tags.split(whereSeparator: \.isWhitespace).map(String.init).filter { tag in others.allSatisfy { $0.contains(tag) } }
    }

    /// One row per slot, in album order. Titles and places get shorter, then the tags go, until
    /// the table fits `width`. The TAGS column leaves out the tags every photo shares.
    static func photoTable(_ photos: [PhotoInfo], width: Int) -> String {
        let ordered = photos.sorted { $0.position < $1.position }
        let shared = Set(sharedTags(photos))
        func ownTags(_ photo: PhotoInfo) -> String {
            photo.tags.split(whereSeparator: \.isWhitespace).map(String.init).filter { !shared.contains($0) }.joined(separator: " ")
        }
        var rendered = ""
        for (limit, withTags) in [(40, true), (28, true), (20, true), (40, false), (28, false), (18, false)] {
            var columns: [TextTable.Column] = [
                .init("#", alignment: .right), .init("PHOTO", alignment: .right), .init("TITLE"), .init("PLACE"),
            ]
            if withTags { columns.append(.init("TAGS")) }
            var table = TextTable(columns: columns)
            for photo in ordered {
                let number = "\(photo.position + 1)"
                switch photo.state {
                case .pending: table.append([number, "\(photo.id)", "[ … ] downloading"])
                case .failed: table.append([number, "\(photo.id)", "[ ✗ ] could not be downloaded"])
                case .ready:
                    table.append([number, "\(photo.id)", clip(photo.title, limit), clip(photo.place, limit), clip(ownTags(photo), 30)])
                }
            }
            rendered = table.render()
            if rendered.split(separator: "\n").allSatisfy({ TextTable.displayWidth(of: String($0)) <= width }) { break }
        }
        return rendered
    }

    /// Shortens long provider text for a table cell.
    static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    /// `"Title" · place · tags: a b c`, for the line above a drawn photo.
    static func caption(_ photo: PhotoInfo) -> String {
        var parts = [photo.title.isEmpty ? "(untitled)" : "“\(PrintableText.clean(photo.title))”"]
        if !photo.place.isEmpty { parts.append(PrintableText.clean(photo.place)) }
        if !photo.tags.isEmpty { parts.append("tags: \(PrintableText.clean(photo.tags))") }
        return "Photo \(photo.id): " + parts.joined(separator: " · ")
    }

    /// The final line of a photo drawn to a non-terminal: `photo ID WxH BYTES sha256:HEX`.
    static func infoLine(_ image: PhotoImage, width: Int, height: Int) -> String {
        "photo \(image.photo.id) \(width)x\(height) \(image.image.count) sha256:\(SHA256.hex(image.sha256))"
    }
}
