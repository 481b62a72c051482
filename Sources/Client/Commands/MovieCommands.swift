import Foundation
import TerminalUI
import Wire

/// movies add | delete | search | edit | list | browse: the favorite-movies list on the server.
enum MovieCommands {
    // MARK: Commands

    static func add(_ context: CommandContext) throws(ClientError) {
        let required = [("--title", "TITLE"), ("--genre", "GENRE"), ("--sales", "DOLLARS")]
        let missing = required.filter { context.parsed.string($0.0) == nil }.map { "\($0.0) \($0.1)" }
        guard missing.isEmpty, let title = context.parsed.string("--title"), let genre = context.parsed.string("--genre"),
            let salesText = context.parsed.string("--sales")
        else {
            throw context.usage("missing \(missing.joined(separator: " and ")): a movie needs a title, a genre and its ticket sales")
        }
        let movie = MovieInfo(
            title: try checkedText(title, option: "--title", maxBytes: FieldLimits.movieTitle, context),
            genre: try checkedText(genre, option: "--genre", maxBytes: FieldLimits.movieGenre, context),
            sales: try sales(salesText, context))
        let session = try context.authenticated()
        let added = try session.addMovie(movie)
        if context.json {
            context.printJSON(MoviePresenter.json(added))
            return
        }
        context.console.out(
            "Added \"\(PrintableText.clean(added.title))\" (\(PrintableText.clean(added.genre)), \(MoviePresenter.dollars(added.sales))).")
    }

    static func delete(_ context: CommandContext) throws(ClientError) {
        let title = try titleArgument(context)
        let session = try context.authenticated()
        // Look the movie up first so the message names it as stored.
        let movie = try found(title) { () throws(ClientError) in try session.findMovie(title: title) }
        try found(title) { () throws(ClientError) in try session.deleteMovie(title: movie.title) }
        context.console.out("Deleted \"\(PrintableText.clean(movie.title))\".")
    }

    static func search(_ context: CommandContext) throws(ClientError) {
        let text = try titleArgument(context)
        let session = try context.authenticated()
        let movies = try session.searchMovies(text)
        if context.json { context.printJSON(.array(movies.map(MoviePresenter.json))) }
        guard !movies.isEmpty else {
            throw ClientError(
                .notFound, "No movie in your favorites has \"\(PrintableText.clean(text))\" in its title (see `snapshare movies list`).")
        }
        if context.json { return }
        context.console.out(movies.map(MoviePresenter.card).joined(separator: "\n\n"))
    }

    static func edit(_ context: CommandContext) throws(ClientError) {
        let title = try titleArgument(context)
        let newTitle = try context.parsed.string("--title").map { (text) throws(ClientError) in
            try checkedText(text, option: "--title", maxBytes: FieldLimits.movieTitle, context)
        }
        let newGenre = try context.parsed.string("--genre").map { (text) throws(ClientError) in
            try checkedText(text, option: "--genre", maxBytes: FieldLimits.movieGenre, context)
        }
        let newSales = try context.parsed.string("--sales").map { (text) throws(ClientError) in try sales(text, context) }
        guard newTitle != nil || newGenre != nil || newSales != nil else {
            throw context.usage("say what to change: --title NEW, --genre GENRE and/or --sales DOLLARS")
        }
        let session = try context.authenticated()
        let current = try found(title) { () throws(ClientError) in try session.findMovie(title: title) }
        let wanted = MovieInfo(title: newTitle ?? current.title, genre: newGenre ?? current.genre, sales: newSales ?? current.sales)
        let movie = try found(title) { () throws(ClientError) in try session.updateMovie(title: current.title, to: wanted) }
        if context.json {
            context.printJSON(MoviePresenter.json(movie))
            return
        }
        context.console.out(
            "Updated \"\(PrintableText.clean(movie.title))\": \(PrintableText.clean(movie.genre)), "
                + "ticket sales \(MoviePresenter.dollars(movie.sales))."
        )
    }

    static func list(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let movies = try session.movies()
        if context.json {
            context.printJSON(.array(movies.map(MoviePresenter.json)))
            return
        }
        guard !movies.isEmpty else {
            context.console.out(emptyList)
            return
        }
        context.console.raw(MoviePresenter.table(movies) + "\n")
    }

    /// One record at a time from the first: `n` next, `p` previous, `q` quit. On a terminal the
    /// keys are read one by one in raw mode; otherwise every character of standard input is a
    /// key (white space ignored), so `printf 'nnpq' | snapshare movies browse` is a script.
    static func browse(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let movies = try session.movies()
        guard !movies.isEmpty else {
            context.console.out(emptyList)
            return
        }
        let terminal = Terminal()
        let interactive = Terminal.isTerminal(terminal.input)
        var saved: Terminal.SavedMode?
        if interactive {
            do { saved = try terminal.enableRawMode() } catch {
                throw ClientError(.local, "cannot read keys from this terminal: \(error)")
            }
        }
        defer { if let saved { try? terminal.restore(saved) } }
        var browser = MovieBrowser(count: movies.count)
        show(movies, at: 0, context)
        if interactive { context.console.out("(n next, p previous, q quit)") }
        var parser = InputParser()
        while true {
            let events: [InputEvent]
            do { events = try terminal.nextEvents(using: &parser) } catch {
                throw ClientError(.local, "cannot read keys: \(error)")
            }
            if events.isEmpty { return } // end of input: a script that ran out of keys
            for key in events.compactMap(MovieBrowser.key(for:)) {
                switch browser.on(key) {
                case .show(let index): show(movies, at: index, context)
                case .message(let line): context.console.out(line)
                case .unknownKey(let text): context.console.err("Unknown key '\(PrintableText.clean(text))': n next, p previous, q quit")
                case .quit: return
                }
            }
        }
    }

    // MARK: Pieces

    private static let emptyList = "No movies yet; add one with `snapshare movies add --title TITLE --genre GENRE --sales DOLLARS`."

    private static func show(_ movies: [MovieInfo], at index: Int, _ context: CommandContext) {
        context.console.out("\nMovie \(index + 1) of \(movies.count)\n" + MoviePresenter.card(movies[index]))
    }

    /// The TITLE argument, checked as `--title` is.
    private static func titleArgument(_ context: CommandContext) throws(ClientError) -> String {
        try checkedText(context.parsed.positional(0) ?? "", option: "TITLE", maxBytes: FieldLimits.movieTitle, context)
    }

    /// Refuses blank text and text longer than the protocol carries (which the server would
    /// have to treat as a damaged frame); the server checks the rest and says why.
    private static func checkedText(_ text: String, option: String, maxBytes: Int, _ context: CommandContext) throws(ClientError) -> String
    {
        guard text.contains(where: { !$0.isWhitespace }) else { throw context.usage("\(option) cannot be empty") }
        guard text.utf8.count <= maxBytes else {
            throw context.usage("\(option) is \(text.utf8.count) bytes long; at most \(maxBytes) bytes of UTF-8 fit")
        }
        return text
    }

    /// `--sales`, by the rules both the command line and the app use.
    static func sales(_ text: String, _ context: CommandContext) throws(ClientError) -> UInt64 {
        switch TicketSales.parse(text, name: "--sales") {
        case .success(let value): return value
        case .failure(let problem): throw context.usage(problem.message)
        }
    }

    /// Runs `body`, turning the server's NOT_FOUND into a message that names the title.
    @discardableResult
    private static func found<T>(_ title: String, _ body: () throws(ClientError) -> T) throws(ClientError) -> T {
        do { return try body() } catch  where error.kind == .notFound {
            throw ClientError(
                .notFound, "No movie titled \"\(PrintableText.clean(title))\" in your favorites (see `snapshare movies list`).",
                serverCode: error.serverCode)
        }
    }
}
