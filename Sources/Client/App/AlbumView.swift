import Foundation
import Imaging
import TerminalUI
import Wire

/// A pin's photo album: a grid of thumbnails, one placeholder per expected photo while it
/// downloads with a progress count, New Collection (refused while downloading), remove a photo
/// (the rest flow up), visit or unvisit it into the current vacation, and a photo full screen.
final class AlbumView {
    private unowned let app: AppModel
    let pin: PinInfo
    let marker: Character
    private var album: Album?
    private var cursor = ListCursor(columns: AlbumView.columns)
    private var selected: Int { cursor.selected }
    /// Thumbnails decoded once, by photo id.
    private var thumbnails: [UInt64: PictureCells] = [:]
    private var fetching: Set<UInt64> = []
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
        ListCursor.keys(\.cursor, grid: true, slot: { album, mouse in album.cells.firstIndex { $0.contains(column: mouse.column, row: mouse.row) } },
                        open: { $0.showSelected() })
        + [.init([.key(.enter)], "the photo full screen") { $0.showSelected() },
           .init([.character("x"), .key(.delete)], "remove the photo") { $0.removeSelected() },
           .init([.character("v")], "visit or unvisit it in the current vacation") { $0.toggleVisit() },
           .init([.character("n")], "New Collection (not while downloading)") { $0.newCollection() }])

    func refresh() {
        guard !loading else { return }
        loading = true
        app.request(retry: true, { [pin] session throws(ClientError) in try session.album(pinID: pin.id) }, then: { [self] album in
            loading = false
            self.album = album
            cursor.count = album.photos.count
            fetchThumbnails()
        })
    }

    func tick() {
        if album?.state == .downloading { refresh() }
    }

    private func fetchThumbnails() {
        guard let album else { return }
        let limits = app.welcome?.displayLimits ?? Welcome.largestDecoded
        for photo in album.photos where photo.state == .ready && thumbnails[photo.id] == nil && !fetching.contains(photo.id) {
            fetching.insert(photo.id)
            app.backend.perform(retry: true, { session throws(ClientError) in
                try Self.decode(try session.photo(photo.id, variant: .thumbnail).image, limits: limits)
            }, then: { [self] result in
                fetching.remove(photo.id)
                if case .success(let image) = result { thumbnails[photo.id] = PictureCells(image) }
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
        app.request(retry: true, { session throws(ClientError) in
            try Self.decode(try session.photo(photo.id).image, limits: limits)
        }, then: { [self] image in
            let title = photo.title.isEmpty ? "Untitled" : photo.title
            app.overlay = .picture(PictureCells(image), caption: "\(title) · \(photo.place) · any key closes")
        })
    }

    private func removeSelected() {
        guard photos.indices.contains(selected) else { return }
        let photo = photos[selected]
        app.request(retry: false, { session throws(ClientError) in try session.deletePhoto(photo.id) }, then: { [self] in
            thumbnails[photo.id] = nil
            album?.photos.removeAll { $0.id == photo.id }
            cursor.count = photos.count
            app.setStatus("Removed \(photo.title.isEmpty ? "the photo" : "\"\(photo.title)\"")")
            refresh()
        })
    }

    private func newCollection() {
        guard album?.state != .downloading else {
            app.setStatus("New Collection is available once this album has finished downloading", isError: true)
            return
        }
        app.request(retry: false, { [pin] session throws(ClientError) in try session.newCollection(pinID: pin.id) }, then: { [self] album in
            self.album = album
            thumbnails = [:]
            cursor.count = album.photos.count
            cursor.select(0)
            app.setStatus("A new collection is downloading")
        })
    }

    /// Adds the photo to the current vacation, or takes it out if it is there.
    private func toggleVisit() {
        guard photos.indices.contains(selected), photos[selected].state == .ready else { return }
        let photo = photos[selected]
        let library = VacationLibrary(state: app.state)
        app.request(retry: true, { session throws(ClientError) -> String in
            let origin = session.settings.serverKey
            do {
                let store = try library.open(nil)
                if try store.contains(origin: origin, photoID: photo.id) {
                    _ = try store.unvisit(photoID: photo.id, preferredOrigin: origin)
                    return "Unvisited from \(store.name)"
                }
                let visited = try AlbumPhotoDownload.fetch(photoID: photo.id, session: session)
                _ = try store.visit(visited, now: Timestamp.now())
                return "Visited into \(store.name)"
            } catch let error as VacationError {
                throw ClientError(error)
            } catch let error as ClientError {
                throw error
            } catch {
                throw ClientError(.local, "\(error)")
            }
        }, then: { [self] message in app.setStatus(message) })
    }

    /// Scrolls the grid and places the thumbnails shown, for drawing and for clicks.
    func layout(in area: Rect) {
        let cellWidth = area.width / Self.columns
        cells = cursor.scrollIntoView(visibleRows: max(1, (area.height - 2) / Self.cellHeight)).map { index in
            let slot = index - cursor.firstRow * Self.columns
            return Rect(x: area.x + slot % Self.columns * cellWidth, y: area.y + 1 + slot / Self.columns * Self.cellHeight,
                        width: cellWidth, height: Self.cellHeight)
        }
    }

    func draw(into grid: inout CellGrid, area: Rect) {
        guard let album else {
            grid.write("Loading the album of pin \(marker)…", column: area.x + 1, row: area.y)
            return
        }
        var heading = "Album of pin \(marker) · "
        switch album.state {
        case .downloading: heading += "downloading \(album.done)/\(album.expected) · New Collection (disabled while downloading)"
        case .ready: heading += "\(album.photos.count) photos · n New Collection"
        case .empty: heading += "No Images · n New Collection"
        case .failed: heading += "failed: \(album.error) · n New Collection"
        }
        grid.write(heading, column: area.x + 1, row: area.y, style: Style(bold: true), width: area.width - 2)
        if album.state == .empty || album.photos.isEmpty {
            grid.write(album.state == .failed ? album.error : "No Images", column: area.x + 3, row: area.y + 2)
            return
        }
        // Only the thumbnails on screen are drawn.
        for (index, box) in zip(cursor.visibleItems, cells) {
            let photo = album.photos[index]
            let inner = Rect(x: box.x + 1, y: box.y, width: box.width - 2, height: box.height - 1)
            if let picture = thumbnails[photo.id] {
                app.drawThumbnail(picture, into: &grid, area: inner)
            } else {
                let text = photo.state == .failed ? "✗ failed" : "… loading"
                let tile = Style(background: app.decorations.tile)
                grid.fill(columns: inner.x..<inner.x + inner.width, rows: inner.y..<inner.y + inner.height, style: tile)
                grid.write(text, column: inner.x + 1, row: inner.y + inner.height / 2, style: tile, width: inner.width - 2)
            }
            let isSelected = index == selected
            let title = photo.title.isEmpty ? "Untitled" : photo.title
            grid.write((isSelected ? "▶ " : "  ") + title, column: box.x + 1, row: box.y + box.height - 1,
                       style: Style(bold: isSelected, reverse: isSelected), width: box.width - 2)
        }
        grid.write("Enter full screen · x remove · v visit/unvisit · Esc map", column: area.x + 1, row: area.y + area.height - 1)
    }
}
