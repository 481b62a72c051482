import JSON
import Wire

/// How favorite movies look in text and in JSON.
enum MoviePresenter {
    /// `{"title": …, "genre": …, "sales": …}`.
    static func json(_ movie: MovieInfo) -> JSONValue {
        // The server never stores more than Int64.max, so the conversion is exact.
        .object([
            ("title", .string(movie.title)), ("genre", .string(movie.genre)),
            ("sales", .int(Int64(clamping: movie.sales))),
        ])
    }

    /// Whole dollars with thousands separators: `$1,234,567`.
    static func dollars(_ amount: UInt64) -> String {
        let digits = Array(String(amount))
        var text = "$"
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }

    /// The three labelled lines of one record, as `movies search` and `movies browse` show it.
    static func card(_ movie: MovieInfo) -> String {
        """
        Title:         \(PrintableText.clean(movie.title))
        Genre:         \(PrintableText.clean(movie.genre))
        Ticket sales:  \(dollars(movie.sales))
        """
    }

    /// A table of movies: title, genre, sales right-aligned.
    static func table(_ movies: [MovieInfo]) -> String {
        var table = TextTable(columns: [.init("TITLE"), .init("GENRE"), .init("TICKET SALES", alignment: .right)])
        for movie in movies { table.append([movie.title, movie.genre, dollars(movie.sales)]) }
        return table.render()
    }
}
