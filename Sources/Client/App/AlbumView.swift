import Foundation
import Imaging
import TerminalUI
import Wire

/// A pin's photo album: a grid of thumbnails, one placeholder per expected photo while it
/// downloads with a progress count, New Collection (refused while downloading), remove a photo
/// (asked first; the rest flow up), visit it into the current vacation (the photos already there
/// marked ✓; taking one out is asked first), and a photo full screen.
final class AlbumView {
    private unowned let app: AppModel
    let pin: PinInfo
    let marker: Character
    private var album: Album?
    private var cursor = ListCursor(columns: AlbumView.columns)
    private var selected: Int { cursor.selected }
    /// Thumbnails decoded once, by photo id.
    private var decoded: [UInt64: PictureCells] = [:]
    private var fetching: Set<UInt64> = []
    /// The album's photos in the current vacation, as last read.
    private var visited: Set<UInt64> = []
    private var loading = false
    /// The box of each thumbnail shown, in the order of `cursor.visibleItems`, as last laid out.
    private var cells: [Rect] = []
    private static let columns = 5
    private static let cellHeight = 7

    init(app: AppModel, pin: PinInfo, marker: Character) {
        self.app = app
        self.pin = pin
        self.marker = marker
    }

    /// The album's keys; the map that shows it adds the way back.
    static let keys = KeyTable<AlbumView>(
        ListCursor.keys(
            \.cursor, grid: true, slot: { album, mouse in album.cells.firstIndex { $0.contains(column: mouse.column, row: mouse.row) } },
            open: { $0.showSelected() })
            + [
                .init([.key(.enter)], "the photo full screen") { $0.showSelected() },
                .init([.character("x"), .key(.delete)], "remove the photo (asks first)") { $0.removeSelected() },
                .init([.character("v")], "visit it into the current vacation; on one there (✓), take it out (asks first)") {
                    $0.toggleVisit()
                },
                .init([.character("n")], "New Collection (not while downloading)") { $0.newCollection() },
            ])

    func refresh() {
        guard !loading else { return }
        loading = true
        let library = VacationLibrary(state: app.state)
        app.request(
            retry: true,
            { [pin] session throws(ClientError) in
                (try session.album(pinID: pin.id), Self.visitedIDs(in: library, origin: session.settings.serverKey))
            },
            then: { [self] album, visited in
                loading = false
                // A download that ended while shown is said, replacing what was said when it began.
                if self.album?.state == .downloading && album.state != .downloading { app.setStatus(Self.ended(album, marker: marker)) }
                self.album = album
                self.visited = visited
                cursor.count = album.photos.count
                fetchThumbnails()
            })
    }

    /// How a download that ended went, for the status line.
    private static func ended(_ album: Album, marker: Character) -> String {
        switch album.state {
        case .ready: "The album of pin \(marker) is ready: \(Plural.count(album.photos.count, "photo"))"
        case .empty: "The album of pin \(marker) found no images here"
        case .failed: "The album of pin \(marker) could not be downloaded: \(album.error)"
        case .downloading: "The album of pin \(marker) is downloading"
        }
    }

    /// The ids of the photos from `origin` in the current vacation; none while it has none yet
    /// (its file is made by the first visit) or cannot be read (a visit then says why).
    private static func visitedIDs(in library: VacationLibrary, origin: String) -> Set<UInt64> {
        guard FileManager.default.fileExists(atPath: library.path(for: VacationName.defaultName)),
            let store = try? library.open(nil), let photos = try? store.allPhotos()
        else { return [] }
        return Set(photos.filter { $0.origin == origin }.map(\.photoID))
    }

    func tick() {
        if album?.state == .downloading { refresh() }
    }

    private func fetchThumbnails() {
        guard let album else { return }
        let limits = app.welcome?.displayLimits ?? Welcome.largestDecoded
        for photo in album.photos where photo.state == .ready && decoded[photo.id] == nil && !fetching.contains(photo.id) {
            fetching.insert(photo.id)
            app.backend.perform(
                retry: true,
                { session throws(ClientError) in
                    try Self.decode(try session.photo(photo.id, variant: .thumbnail).image, limits: limits)
                },
                then: { [self] result in
                    fetching.remove(photo.id)
                    if case .success(let image) = result { decoded[photo.id] = PictureCells(image) }
                })
        }
    }

    private var photos: [PhotoInfo] { album?.photos ?? [] }

    /// A photo from the server decoded, or a clear error when its bytes are not a picture.
    static func decode(_ bytes: [UInt8], limits: ImageLimits) throws(ClientError) -> RGBImage {
        do { return try ImageCodec.decode(bytes, limits: limits) } catch {
            throw ClientError(.integrity, "the photo cannot be shown: \(error)")
        }
    }

    private func showSelected() {
        guard photos.indices.contains(selected) else { return }
        let photo = photos[selected]
        guard photo.state == .ready else {
            app.setStatus(photo.state == .pending ? "That photo is still downloading" : "That photo could not be downloaded", isError: true)
            return
        }
        let limits = app.welcome?.displayLimits ?? Welcome.largestDecoded
        app.request(
            retry: true,
            { session throws(ClientError) in
                try Self.decode(try session.photo(photo.id).image, limits: limits)
            },
            then: { [self] image in
                let title = photo.title.isEmpty ? "Untitled" : photo.title
                app.overlay = PictureView.overlay(PictureCells(image), describing: "\(title) · \(photo.place)")
            })
    }

    private func removeSelected() {
        guard photos.indices.contains(selected) else { return }
        let photo = photos[selected]
        let name = Self.name(of: photo)
        app.confirm("Remove \(name) from the album of pin \(marker)? It does not come back; New Collection fetches a new set.") {
            [self] _, finish in
            app.request(
                retry: false, answering: finish, { session throws(ClientError) in try session.deletePhoto(photo.id) },
                then: { [self] in
                    decoded[photo.id] = nil
                    album?.photos.removeAll { $0.id == photo.id }
                    cursor.count = photos.count
                    app.setStatus("Removed \(name)")
                    refresh()
                })
        }
    }

    /// A photo as a sentence names it: its title quoted, or "the photo".
    private static func name(of photo: PhotoInfo) -> String {
        photo.title.isEmpty ? "the photo" : "\"\(PrintableText.clean(photo.title))\""
    }

    private func newCollection() {
        guard album?.state != .downloading else {
            app.setStatus("New Collection is available once this album has finished downloading", isError: true)
            return
        }
        app.request(
            retry: false, { [pin] session throws(ClientError) in try session.newCollection(pinID: pin.id) },
            then: { [self] album in
                self.album = album
                decoded = [:]
                cursor.count = album.photos.count
                cursor.select(0)
                // Said as it is: a download that already ended is not "downloading".
                app.setStatus(album.state == .downloading ? "A new collection is downloading" : Self.ended(album, marker: marker))
            })
    }

    /// Visits the photo into the current vacation; one already there (✓) is taken out, asked
    /// first, so a second `v` never undoes a visit unseen.
    private func toggleVisit() {
        guard photos.indices.contains(selected) else { return }
        let photo = photos[selected]
        guard photo.state == .ready else {
            app.setStatus("That photo is not downloaded yet: it can be visited once it shows", isError: true)
            return
        }
        let library = VacationLibrary(state: app.state)
        guard visited.contains(photo.id) else {
            app.request(
                retry: true,
                { session throws(ClientError) -> String in
                    try Self.inVacation(library) { store in
                        _ = try store.visit(try AlbumPhotoDownload.fetch(photoID: photo.id, session: session), now: Timestamp.now())
                        return store.name
                    }
                },
                then: { [self] vacation in
                    visited.insert(photo.id)
                    app.setStatus("Visited into \(vacation)")
                })
            return
        }
        app.confirm("Take \(Self.name(of: photo)) out of \(VacationName.defaultName)? The vacation forgets it; the album keeps it.") {
            [self] _, finish in
            app.request(
                retry: true, answering: finish,
                { session throws(ClientError) -> String in
                    try Self.inVacation(library) { store in
                        _ = try store.unvisit(photoID: photo.id, preferredOrigin: session.settings.serverKey)
                        return store.name
                    }
                },
                then: { [self] vacation in
                    visited.remove(photo.id)
                    app.setStatus("Took \(Self.name(of: photo)) out of \(vacation)")
                })
        }
    }

    /// Runs `body` with the current vacation, its failures as the app's errors.
    private static func inVacation<T>(_ library: VacationLibrary, _ body: (VacationStore) throws -> T) throws(ClientError) -> T {
        do {
            return try body(try library.open(nil))
        } catch let error as VacationError {
            throw ClientError(error)
        } catch let error as ClientError {
            throw error
        } catch {
            throw ClientError(.local, "\(error)")
        }
    }

    /// Scrolls the grid and places the thumbnails shown, for drawing and for clicks.
    func layout(in area: Rect) {
        let cellWidth = area.width / Self.columns
        cells = cursor.scrollIntoView(visibleRows: max(1, (area.height - 2) / Self.cellHeight)).map { index in
            let slot = index - cursor.firstRow * Self.columns
            return Rect(
                x: area.x + slot % Self.columns * cellWidth, y: area.y + 1 + slot / Self.columns * Self.cellHeight,
                width: cellWidth, height: Self.cellHeight)
        }
    }

    /// The photos' thumbnails shown, where the last layout put them: inside each cell, above its title.
    var thumbnails: [KittyThumbnails.Placement] {
        guard let album, album.state != .empty, !album.photos.isEmpty else { return [] }
        return zip(cursor.visibleItems, cells).compactMap { index, box in
            decoded[album.photos[index].id].map { KittyThumbnails.Placement(picture: $0, area: Self.inner(box)) }
        }
    }

    /// Where a cell's thumbnail (or its loading tile) goes: all but its edges and its title's row.
    private static func inner(_ box: Rect) -> Rect { Rect(x: box.x + 1, y: box.y, width: box.width - 2, height: box.height - 1) }

    func draw(into grid: inout CellGrid, area: Rect) {
        guard let album else {
            grid.write("Loading the album of pin \(marker)…", column: area.x + 1, row: area.y)
            return
        }
        var heading = "Album of pin \(marker) · "
        switch album.state {
        case .downloading: heading += "downloading \(album.done)/\(album.expected) · New Collection (disabled while downloading)"
        case .ready:
            heading +=
                Plural.count(album.photos.count, "photo")
                + (visited.isEmpty ? "" : " · \(visited.count) in \(VacationName.defaultName) ✓")
                + " · n New Collection"
        case .empty: heading += "No Images · n New Collection"
        case .failed: heading += "failed: \(album.error) · n New Collection"
        }
        grid.write(heading, column: area.x + 1, row: area.y, style: Style(bold: true), width: area.width - 2)
        if album.state == .empty || album.photos.isEmpty {
            grid.write(album.state == .failed ? album.error : "No Images", column: area.x + 3, row: area.y + 2)
            return
        }
        // Only the thumbnails on screen are drawn.
        app.draw(thumbnails, into: &grid)
        for (index, box) in zip(cursor.visibleItems, cells) {
            let photo = album.photos[index]
            let inner = Self.inner(box)
            if decoded[photo.id] == nil {
                let text = photo.state == .failed ? "✗ failed" : "… loading"
                let tile = Style(background: app.decorations.tile)
                grid.fill(columns: inner.x..<inner.x + inner.width, rows: inner.y..<inner.y + inner.height, style: tile)
                grid.write(text, column: inner.x + 1, row: inner.y + inner.height / 2, style: tile, width: inner.width - 2)
            }
            let isSelected = index == selected
            let title = photo.title.isEmpty ? "Untitled" : photo.title
            let label = (isSelected ? "▶ " : "  ") + (visited.contains(photo.id) ? "✓ " : "") + PrintableText.clean(title)
            grid.write(
                TextWrap.shortened(label, width: box.width - 2), column: box.x + 1, row: box.y + box.height - 1,
                style: Style(bold: isSelected, reverse: isSelected), width: box.width - 2)
        }
        grid.write("Enter full screen · x remove · v visit (✓ visited) · Esc map", column: area.x + 1, row: area.y + area.height - 1)
    }
}
