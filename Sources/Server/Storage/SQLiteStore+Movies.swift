import SQLite

/// Favorite movies: one row per (user, title), titles compared by their lower-case key.
extension SQLiteStore {
    public func addMovie(_ movie: MovieRecord, userID: Int64, at: Int64) throws -> MovieRecord {
        try explainingMovieRefusals(movie, userID: userID, adding: true) {
            try translatingErrors("adding movie") {
                try database.run("""
                    INSERT INTO movies (user_id, title, title_key, genre, sales, created_at, updated_at)
                    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
                    """, [.integer(userID), .text(movie.title), .text(MovieRecord.titleKey(movie.title)),
                          .text(movie.genre), .integer(movie.sales), .integer(at)])
                return movie
            }
        }
    }

    public func deleteMovie(title: String, userID: Int64) throws {
        try translatingErrors("deleting movie") {
            let deleted = try database.run("DELETE FROM movies WHERE user_id = ?1 AND title_key = ?2",
                                           [.integer(userID), .text(MovieRecord.titleKey(title))])
            guard deleted > 0 else { throw StoreError(.notFound, "no movie titled \"\(title)\"") }
        }
    }

    public func movie(title: String, userID: Int64) throws -> MovieRecord? {
        try translatingErrors("looking up movie") {
            try database.queryFirst(Self.movieColumns + " WHERE user_id = ?1 AND title_key = ?2",
                                    [.integer(userID), .text(MovieRecord.titleKey(title))], row: StoreRows.movie)
        }
    }

    public func setMovieSales(title: String, sales: Int64, userID: Int64, at: Int64) throws -> MovieRecord {
        try translatingErrors("changing ticket sales") {
            // One statement changes and returns the row, so there is no window between them.
            guard let movie = try database.queryFirst("""
                UPDATE movies SET sales = ?3, updated_at = ?4 WHERE user_id = ?1 AND title_key = ?2
                RETURNING title, genre, sales
                """, [.integer(userID), .text(MovieRecord.titleKey(title)), .integer(sales), .integer(at)],
                row: StoreRows.movie) else {
                throw StoreError(.notFound, "no movie titled \"\(title)\"")
            }
            return movie
        }
    }

    public func updateMovie(title: String, to movie: MovieRecord, userID: Int64, at: Int64) throws -> MovieRecord {
        try explainingMovieRefusals(movie, userID: userID, adding: false) {
            try translatingErrors("changing movie") {
                guard let updated = try database.queryFirst("""
                    UPDATE movies SET title = ?3, title_key = ?4, genre = ?5, sales = ?6, updated_at = ?7
                    WHERE user_id = ?1 AND title_key = ?2
                    RETURNING title, genre, sales
                    """, [.integer(userID), .text(MovieRecord.titleKey(title)), .text(movie.title),
                          .text(MovieRecord.titleKey(movie.title)), .text(movie.genre), .integer(movie.sales), .integer(at)],
                    row: StoreRows.movie) else {
                    throw StoreError(.notFound, "no movie titled \"\(title)\"")
                }
                return updated
            }
        }
    }

    public func movies(userID: Int64) throws -> [MovieRecord] {
        try translatingErrors("listing movies") {
            // The unique index (user_id, title_key) yields this order without a sort; the
            // title breaks ties between keys that only look alike.
            try database.query(Self.movieColumns + " WHERE user_id = ?1 ORDER BY title_key, title",
                               [.integer(userID)], row: StoreRows.movie)
        }
    }

    public func movieCount(userID: Int64) throws -> Int {
        try translatingErrors("counting movies") {
            Int(try database.scalar("SELECT count(*) FROM movies WHERE user_id = ?1", [.integer(userID)]))
        }
    }

    static let movieColumns = "SELECT title, genre, sales FROM movies"

}
