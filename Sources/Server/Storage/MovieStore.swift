/// Each user's favorite movies: adding, finding, changing, listing and deleting them. Used by
/// the movie handlers.
///
/// Titles are unique per user case-insensitively: the store compares them by
/// `MovieRecord.titleKey(_:)` (Unicode lower case), so "AMÉLIE" and "amélie" are one movie.
/// Callers pass titles and genres already validated (see `MovieInput`).
package protocol MovieStore: AnyObject {
    /// Runs `body` atomically (nested: a savepoint), as `SnapshareStore.transaction`.
    func transaction<T>(_ body: () throws -> T) throws -> T
    /// Adds a movie for `userID`; `StoreError.conflict` when the user already has that title
    /// (in any case), `StoreError.notFound` when the user does not exist.
    func addMovie(_ movie: MovieRecord, userID: Int64, at: Int64) throws -> MovieRecord
    /// Deletes the user's movie with this title (any case); `StoreError.notFound` if absent.
    func deleteMovie(title: String, userID: Int64) throws
    /// The user's movie with this title (any case), or nil.
    func movie(title: String, userID: Int64) throws -> MovieRecord?
    /// Sets the ticket sales of the user's movie with this title (any case) and returns it;
    /// `StoreError.notFound` if absent.
    func setMovieSales(title: String, sales: Int64, userID: Int64, at: Int64) throws -> MovieRecord
    /// Replaces the title, genre and sales of the user's movie with this title (any case) and
    /// returns it; `StoreError.notFound` if absent, `StoreError.conflict` when the new title is
    /// another of the user's movies.
    func updateMovie(title: String, to movie: MovieRecord, userID: Int64, at: Int64) throws -> MovieRecord
    /// Every movie of the user, ordered by title case-insensitively.
    func movies(userID: Int64) throws -> [MovieRecord]
    /// How many movies the user keeps.
    func movieCount(userID: Int64) throws -> Int
}

extension MovieStore {
    /// Runs an engine's insert (`adding`) or update of `movie` for `userID`, saying what a refusal
    /// means in every engine's words: a title the user already has (named as stored, which may
    /// differ in case from the one typed), or, for an insert, a user that does not exist.
    ///
    /// `body` runs in a savepoint of its own: on PostgreSQL a refused statement aborts the
    /// transaction around it, and explaining the refusal reads the stored title afterwards.
    func explainingMovieRefusals<T>(_ movie: MovieRecord, userID: Int64, adding: Bool, _ body: () throws -> T) throws -> T {
        do {
            return try transaction(body)
        } catch let error as StoreError where error.kind == .conflict {
            let existing = (try? self.movie(title: movie.title, userID: userID))?.title ?? movie.title
            throw StoreError(.conflict, "you already have a movie titled \"\(existing)\"")
        } catch let error as StoreError where error.kind == .notFound && adding {
            throw StoreError(.notFound, "user \(userID) does not exist")
        }
    }
}
