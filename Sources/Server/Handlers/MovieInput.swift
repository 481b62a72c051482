import Wire

/// What the server accepts as a favorite movie: the rules behind AddMovie, FindMovie,
/// DeleteMovie and SetMovieSales (docs/PROTOCOL.md 5.6).
enum MovieInput {
    /// Longest title, in characters (the wire also caps it at `FieldLimits.movieTitle` bytes).
    static let maxTitleCharacters = 200
    /// Longest genre, in characters (the wire also caps it at `FieldLimits.movieGenre` bytes).
    static let maxGenreCharacters = 60
    /// How many movies one user may keep: a full listing then stays a few MiB at most.
    static let maxMoviesPerUser = 10_000

    /// 1 to 200 characters after trimming white space, no control characters.
    static func normalizedTitle(_ raw: String) -> Result<String, InputError> {
        InputRules.normalizedText(
            raw, maxCharacters: maxTitleCharacters, empty: "a movie needs a title; it cannot be empty",
            plural: "movie titles")
    }

    /// 1 to 60 characters after trimming white space, no control characters.
    static func normalizedGenre(_ raw: String) -> Result<String, InputError> {
        InputRules.normalizedText(
            raw, maxCharacters: maxGenreCharacters, empty: "a movie needs a genre; it cannot be empty",
            plural: "genres")
    }

    /// Ticket sales as SQLite stores them: whole dollars up to `Int64.max`.
    static func validatedSales(_ sales: UInt64) -> Result<Int64, InputError> {
        guard let value = Int64(exactly: sales) else {
            return .failure(InputError("ticket sales are at most \(Int64.max) dollars, got \(sales)"))
        }
        return .success(value)
    }
}
