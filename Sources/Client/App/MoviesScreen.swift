import TerminalUI
import Wire

/// Favorite movies: one record at a time (title, genre, ticket sales) with Add, Delete, Search,
/// Edit, Next and Previous; the ends answer "No more records" and "Showing the first Record".
final class MoviesScreen: AppScreen {
    private enum Mode {
        case browse
        /// Adding (`editing` nil) or editing the movie titled `editing`.
        case form(editing: String?)
        case search
    }

    private unowned let app: AppModel
    private var movies: [MovieInfo] = []
    private var browser: MovieBrowser?
    private var mode = Mode.browse
    private var form = [
        TextField(label: "Title", limit: 200), TextField(label: "Genre", limit: 100),
        TextField(label: "Ticket sales ($)", limit: 20),
    ]
    private var formFocus = 0
    private var query = TextField(label: "Search: ", limit: 200)
    /// The search the list shows, if any.
    private var searched: String?
    private var loaded = false

    init(app: AppModel) { self.app = app }

    var keys: KeyTable<MoviesScreen> {
        switch mode {
        case .browse: searched == nil ? Self.browseKeys : Self.searchedKeys
        case .form: Self.formKeys
        case .search: Self.searchKeys
        }
    }

    private static let browseKeys = KeyTable<MoviesScreen>([
        .init([.character("n"), .character("N"), .key(.right), .key(.down)], "next record") { $0.step(.next) },
        .init([.character("p"), .character("P"), .key(.left), .key(.up)], "previous record") { $0.step(.previous) },
        .init([.character("a")], "add") { $0.startAdding() },
        .init([.character("e")], "edit") { $0.startEditing() },
        .init([.character("d")], "delete (asks first)") { $0.deleteCurrent() },
        .init([.character("s"), .character("/")], "search the titles") { $0.startSearching() },
    ])

    /// A search's results: the way back to every movie too.
    private static let searchedKeys = KeyTable<MoviesScreen>(
        browseKeys.bindings + [
            .init([.key(.escape), .key(.backspace)], "back to every movie") { $0.load(search: nil) }
        ])

    private static let formKeys = KeyTable<MoviesScreen>([
        .init(
            "next or previous field",
            cases: [
                .init([.key(.tab), .key(.down)]) { $0.formFocus = ($0.formFocus + 1) % $0.form.count },
                .init([.key(.backTab), .key(.up)]) { $0.formFocus = ($0.formFocus + $0.form.count - 1) % $0.form.count },
            ]),
        .init([.key(.enter)], "save") { $0.save() },
        .init([.key(.escape)], "cancel") { $0.mode = .browse },
        .init([.typing], "the title, genre or ticket sales", event: { $0.form[$0.formFocus].handle($1) }),
    ])

    private static let searchKeys = KeyTable<MoviesScreen>([
        .init([.key(.enter)], "search") { $0.search() },
        .init([.key(.escape)], "cancel") { $0.mode = .browse },
        .init([.typing], "the words to find in the titles", event: { $0.query.handle($1) }),
    ])

    var isTyping: Bool { if case .browse = mode { false } else { true } }

    func activate() { load(search: searched) }

    private var current: MovieInfo? { browser.map { movies[$0.index] } }

    private func load(search: String?, select title: String? = nil) {
        app.request(
            retry: true,
            { session throws(ClientError) in
                if let search { try session.searchMovies(search) } else { try session.movies() }
            },
            then: { [self] found in
                loaded = true
                searched = search
                movies = found
                // None found: the screen says so (for a search, that no title matches).
                guard !found.isEmpty else {
                    browser = nil
                    return
                }
                var cursor = MovieBrowser(count: found.count)
                if let title, let index = found.firstIndex(where: { $0.title == title }) {
                    for _ in 0..<index { _ = cursor.on(.next) }
                }
                browser = cursor
            })
    }

    /// The next or previous record; past either end, the fixed message.
    private func step(_ key: MovieBrowser.Key) {
        guard var cursor = browser else { return }
        if case .message(let line) = cursor.on(key) { app.setStatus(line) } else { app.setStatus("") }
        browser = cursor
    }

    private func startAdding() {
        for index in form.indices { form[index].set("") }
        formFocus = 0
        mode = .form(editing: nil)
    }

    private func startEditing() {
        guard let movie = current else { return }
        form[0].set(movie.title)
        form[1].set(movie.genre)
        form[2].set(String(movie.sales))
        formFocus = 0
        mode = .form(editing: movie.title)
    }

    private func deleteCurrent() {
        guard let movie = current else { return }
        app.confirm("Delete \"\(movie.title)\"?") { [self] _, finish in
            app.request(
                retry: false, answering: finish, { session throws(ClientError) in try session.deleteMovie(title: movie.title) },
                then: { [self] in
                    app.setStatus("Deleted \"\(movie.title)\"")
                    load(search: searched)
                })
        }
    }

    /// A new search starts empty (the last one shows in the heading until Esc), so typing never
    /// runs on from it.
    private func startSearching() {
        query.set("")
        mode = .search
    }

    private func search() {
        mode = .browse
        let text = query.text.trimmingCharacters(in: .whitespaces)
        load(search: text.isEmpty ? nil : text)
    }

    private func save() {
        guard case .form(let editing) = mode else { return }
        let title = form[0].text.trimmingCharacters(in: .whitespaces)
        let genre = form[1].text.trimmingCharacters(in: .whitespaces)
        guard !title.isEmpty else {
            formFocus = 0
            app.setStatus("A movie needs a title", isError: true)
            return
        }
        // Required, as `movie add` requires --sales: an empty field is not $0.
        let salesText = form[2].text.trimmingCharacters(in: .whitespaces)
        guard !salesText.isEmpty else {
            formFocus = 2
            app.setStatus("A movie needs its ticket sales: a whole number of dollars such as 1234567 or $1,234,567", isError: true)
            return
        }
        let sales: UInt64
        switch TicketSales.parse(salesText, name: "Ticket sales") {
        case .success(let value): sales = value
        case .failure(let problem):
            formFocus = 2
            app.setStatus(problem.message, isError: true)
            return
        }
        let movie = MovieInfo(title: title, genre: genre, sales: sales)
        app.request(
            retry: false,
            { session throws(ClientError) in
                if let editing { try session.updateMovie(title: editing, to: movie) } else { try session.addMovie(movie) }
            },
            then: { [self] saved in
                mode = .browse
                app.setStatus(editing == nil ? "Added \"\(saved.title)\"" : "Saved \"\(saved.title)\"")
                load(search: nil, select: saved.title)
            })
    }

    func draw(into grid: inout CellGrid, area: Rect) {
        let left = area.x + 2
        switch mode {
        case .form(let editing):
            grid.write(editing == nil ? "Add a movie" : "Edit \"\(editing!)\"", column: left, row: area.y, style: Style(bold: true))
            for (index, field) in form.enumerated() {
                field.draw(
                    into: &grid, column: left, row: area.y + 2 + index * 2, labelWidth: 20, width: min(70, area.width - 4),
                    focused: index == formFocus)
            }
            grid.write("Enter saves · Esc cancels", column: left, row: area.y + 9)
            return
        case .search:
            query.draw(into: &grid, column: left, row: area.y, labelWidth: 8, width: min(70, area.width - 4), focused: true)
            return
        case .browse:
            break
        }
        let heading = searched.map { "Movies matching \"\($0)\"" } ?? "Favorite movies"
        grid.write(heading, column: left, row: area.y, style: Style(bold: true))
        guard let browser, let movie = current else {
            let empty =
                searched.map { "No movie matches \"\($0)\": Esc shows every movie, s searches again" } ?? "No movies yet: a adds one"
            grid.write(loaded ? empty : "Loading…", column: left, row: area.y + 2, width: area.width - 4)
            return
        }
        grid.write("Record \(browser.index + 1) of \(movies.count)", column: left, row: area.y + 1)
        let lines = [("Title", movie.title), ("Genre", movie.genre), ("Ticket sales", MoviePresenter.dollars(movie.sales))]
        for (index, (label, value)) in lines.enumerated() {
            grid.write(label, column: left, row: area.y + 3 + index * 2, style: Style(bold: true))
            grid.write(value, column: left + 16, row: area.y + 3 + index * 2, width: area.width - 20)
        }
        grid.write("[a] Add  [d] Delete  [s] Search  [e] Edit  [p] Previous  [n] Next", column: left, row: area.y + 10)
    }
}
