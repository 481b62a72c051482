import Shared

/// What the server accepts as a favorite movie: the rules behind AddMovie, FindMovie,
/// DeleteMovie and SetMovieSales (docs/PROTOCOL.md 5.6).
public enum MovieInput {
    /// Longest title, in characters (the wire also caps it at `FieldLimits.movieTitle` bytes).
    public static let maxTitleCharacters = 200
    /// Longest genre, in characters (the wire also caps it at `FieldLimits.movieGenre` bytes).
    public static let maxGenreCharacters = 60
    /// How many movies one user may keep: a full listing then stays a few MiB at most.
    public static let maxMoviesPerUser = 10_000

    /// 1 to 200 characters after trimming white space, no control characters.
    public static func normalizedTitle(_ raw: String) -> Result<String, InputError> {
        normalized(raw, what: "title", plural: "movie titles", maxCharacters: maxTitleCharacters)
    }

    /// 1 to 60 characters after trimming white space, no control characters.
    public static func normalizedGenre(_ raw: String) -> Result<String, InputError> {
        normalized(raw, what: "genre", plural: "genres", maxCharacters: maxGenreCharacters)
    }

    /// Ticket sales as SQLite stores them: whole dollars up to `Int64.max`.
    public static func validatedSales(_ sales: UInt64) -> Result<Int64, InputError> {
        guard let value = Int64(exactly: sales) else {
            return .failure(InputError("ticket sales are at most \(Int64.max) dollars, got \(sales)"))
        }
        return .success(value)
    }

    private static func normalized(_ raw: String, what: String, plural: String, maxCharacters: Int) -> Result<String, InputError> {
        let text = raw.trimmingSpaces
        guard !text.isEmpty else { return .failure(InputError("a movie needs a \(what); it cannot be empty")) }
        guard text.count <= maxCharacters else {
            return .failure(InputError("\(plural) are at most \(maxCharacters) characters, got \(text.count)"))
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(InputError("\(plural) cannot contain control characters"))
        }
        return .success(text)
    }
}
