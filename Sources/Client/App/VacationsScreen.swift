import Imaging
import TerminalUI
import Wire

/// Virtual Vacations, from the vacation files on this machine (no server needed): the list
/// (new, delete with confirmation), then Itinerary (places, first visited first → photos by
/// title) and Tag Search (tags by count, capitalized, with a search box → photos); Enter shows a
/// photo full screen from the file.
final class VacationsScreen: AppScreen {
    private enum Level {
        case list
        case naming
        /// Inside a vacation: `tags` picks Tag Search over Itinerary.
        case vacation(VacationStore, tags: Bool)
        case photos(VacationStore, title: String, [VacationPhoto], backToTags: Bool)
    }

    private unowned let app: AppModel
    private var level = Level.list
    private var vacations: [VacationSummary] = []
    private var places: [VacationPlace] = []
    private var tags: [VacationTag] = []
    /// The selection in whichever list the level shows.
    private var cursor = ListCursor()
    private var selected: Int { cursor.selected }
    private var name = TextField(label: "Name: ", limit: 100)
    private var search = TextField(label: "Search tags: ", limit: 100)
    private var searching = false
    private var library: VacationLibrary { VacationLibrary(state: app.state) }

    init(app: AppModel) { self.app = app }

    var keys: KeyTable<VacationsScreen> {
        if searching { return Self.searchKeys }
        switch level {
        case .list: return Self.listKeys
        case .naming: return Self.namingKeys
        case .vacation: return Self.vacationKeys
        case .photos: return Self.photoKeys
        }
    }

    private static let cursorKeys = ListCursor.keys(
        \VacationsScreen.cursor,
        slot: { screen, mouse in
            mouse.row >= screen.listTop ? mouse.row - screen.listTop : nil
        }, open: { $0.enter() })

    private static let backKey = KeyTable<VacationsScreen>.Binding([.key(.escape), .key(.backspace)], "back") { $0.back() }

    private static let listKeys = KeyTable<VacationsScreen>(
        cursorKeys + [
            .init([.key(.enter)], "open") { $0.enter() },
            .init([.character("n")], "new vacation") { $0.startNaming() },
            .init([.character("d")], "delete (asks first)") { $0.deleteSelected() },
        ])

    private static let namingKeys = KeyTable<VacationsScreen>([
        .init([.key(.enter)], "create") { $0.create() },
        .init([.key(.escape)], "cancel") { $0.level = .list },
        .init([.typing], "the new vacation's name", event: { $0.name.handle($1) }),
    ])

    private static let vacationKeys = KeyTable<VacationsScreen>(
        cursorKeys + [
            .init([.key(.enter)], "the photos") { $0.enter() },
            .init(
                "Itinerary, Tag Search",
                cases: [
                    .init([.character("i")]) { $0.openShown(tags: false) },
                    .init([.character("t")]) { $0.openShown(tags: true) },
                ]),
            .init([.character("/")], "search the tags") { $0.startSearching() },
            backKey,
        ])

    private static let photoKeys = KeyTable<VacationsScreen>(
        cursorKeys + [
            .init([.key(.enter)], "full screen, from the vacation file") { $0.enter() },
            backKey,
        ])

    private static let searchKeys = KeyTable<VacationsScreen>([
        .init([.key(.escape), .key(.enter)], "done searching") { $0.searching = false },
        .init(
            [.typing], "the tags to find",
            event: { screen, event in
                guard screen.search.handle(event) else { return false }
                screen.openShown(tags: true)
                return true
            }),
    ])

    var isTyping: Bool {
        if case .naming = level { return true }
        return searching
    }

    func activate() {
        if case .list = level { reloadList() }
    }

    private func reloadList() {
        let found = library.list()
        vacations = found.vacations
        if let warning = found.warnings.first { app.setStatus(warning.line, isError: true) }
        cursor.count = count
    }

    private func fail(_ error: VacationError) { app.setStatus(error.description, isError: true) }

    private var count: Int {
        switch level {
        case .list: vacations.count
        case .naming: 0
        case .vacation(_, let byTags): byTags ? tags.count : places.count
        case .photos(_, _, let photos, _): photos.count
        }
    }

    private func startNaming() {
        name.set("")
        level = .naming
    }

    private func deleteSelected() {
        guard vacations.indices.contains(selected) else { return }
        let doomed = vacations[selected].name
        app.confirm("Delete vacation \"\(doomed)\" and every photo in it?") { [self] _, finish in
            do throws(VacationError) {
                _ = try library.remove(doomed)
                finish(.done)
                app.setStatus("Deleted \(doomed)")
                reloadList()
            } catch {
                finish(.refused(error.description))
            }
        }
    }

    /// The vacation shown, as its Itinerary or its Tag Search.
    private func openShown(tags byTags: Bool) {
        if case .vacation(let store, _) = level { open(store, tags: byTags) }
    }

    private func startSearching() {
        openShown(tags: true)
        searching = true
    }

    private func create() {
        do {
            let store = try library.create(name.text)
            app.setStatus("Created \(store.name)")
            level = .list
            reloadList()
        } catch { fail(error) }
    }

    private func open(_ store: VacationStore, tags byTags: Bool) {
        do {
            if byTags { tags = try store.tags(search: search.text) } else { places = try store.itinerary() }
            if case .vacation(_, let was) = level, was == byTags {} else { cursor.select(0) }
            level = .vacation(store, tags: byTags)
            cursor.count = count
        } catch { fail(error) }
    }

    private func enter() {
        switch level {
        case .list:
            guard vacations.indices.contains(selected) else { return }
            do {
                search.set("")
                open(try library.open(vacations[selected].name), tags: false)
            } catch { fail(error) }
        case .vacation(let store, let byTags):
            do {
                if byTags, tags.indices.contains(selected) {
                    let found = try store.photos(taggedWith: tags[selected].name)
                    level = .photos(store, title: "Tagged \(found.tag.displayName)", found.photos, backToTags: true)
                } else if !byTags, places.indices.contains(selected) {
                    let found = try store.photos(atPlace: places[selected].name)
                    level = .photos(store, title: found.place.name, found.photos, backToTags: false)
                } else {
                    return
                }
                cursor.count = count
                cursor.select(0)
            } catch { fail(error) }
        case .photos(let store, _, let photos, _):
            guard photos.indices.contains(selected) else { return }
            let photo = photos[selected]
            // The bytes come from the vacation file here (its connection belongs to this thread);
            // the decoding, the slow part, happens off it.
            let bytes: [UInt8]
            do throws(VacationError) { (_, bytes) = try store.image(photoID: photo.photoID, preferredOrigin: photo.origin) } catch {
                return fail(error)
            }
            let caption = "\(photo.displayTitle) · \(photo.place) · from \(store.name)"
            app.backend.performLocal(
                { () throws(ClientError) -> RGBImage in
                    do { return try ImageCodec.decode(bytes, limits: Welcome.largestDecoded) } catch {
                        throw ClientError(.local, "The photo in the vacation file cannot be shown: \(error)")
                    }
                },
                then: { [self] result in
                    switch result {
                    case .success(let image): app.overlay = PictureView.overlay(PictureCells(image), describing: caption)
                    case .failure(let error): app.setStatus(error.message, isError: true)
                    }
                })
        case .naming:
            break
        }
    }

    /// From a vacation to the list, from its photos to the vacation.
    private func back() {
        switch level {
        case .list, .naming: return
        case .vacation:
            level = .list
            reloadList()
        case .photos(let store, _, _, let byTags): open(store, tags: byTags)
        }
        cursor.select(0)
    }

    // MARK: Layout and drawing

    /// The screen row of the list's first item, as last laid out: a click counts from it.
    private var listTop = 0

    func layout(in area: Rect) {
        listTop = area.y + 2
        cursor.scrollIntoView(visibleRows: area.height - 3)
    }

    func draw(into grid: inout CellGrid, area: Rect) {
        let left = area.x + 1
        var lines: [String] = []
        switch level {
        case .list, .naming:
            grid.write("Vacations on this computer", column: left, row: area.y, style: Style(bold: true))
            lines = vacations.map {
                "\($0.name) · "
                    + [Plural.count($0.photos, "photo"), Plural.count($0.places, "place"), Plural.count($0.tags, "tag")]
                    .joined(separator: ", ")
            }
            if vacations.isEmpty { grid.write("No vacations yet: n makes one (v in an album visits a photo)", column: left, row: listTop) }
            if case .naming = level {
                name.draw(into: &grid, column: left, row: area.y + area.height - 1, labelWidth: 6, width: 60, focused: true)
            }
        case .vacation(let store, let byTags):
            let tabs = byTags ? "i Itinerary · [t Tag Search]" : "[i Itinerary] · t Tag Search"
            grid.write("\(store.name) · \(tabs)", column: left, row: area.y, style: Style(bold: true))
            if byTags {
                search.draw(into: &grid, column: left, row: area.y + 1, labelWidth: 13, width: 50, focused: searching)
                lines = tags.map { "\($0.displayName) (\($0.count))" }
            } else {
                lines = places.map { "\($0.name) · " + Plural.count($0.photoCount, "photo") }
            }
            if lines.isEmpty {
                grid.write(byTags ? "No tags" : "No places yet: visit photos from an album (v)", column: left, row: listTop)
            }
        case .photos(let store, let title, let photos, _):
            grid.write("\(store.name) · \(title)", column: left, row: area.y, style: Style(bold: true))
            lines = photos.map { "\($0.displayTitle) · \($0.place)" }
        }
        for index in cursor.visibleItems where lines.indices.contains(index) {
            grid.write(
                lines[index], column: left, row: listTop + index - cursor.firstRow,
                style: Style(bold: index == selected, reverse: index == selected), width: area.width - 2)
        }
        cursor.drawScrollHints(into: &grid, area: area, top: listTop, style: Style(foreground: app.decorations.faint, bold: true))
    }
}
