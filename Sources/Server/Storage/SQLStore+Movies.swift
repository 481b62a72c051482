import SQL

/// Favorite movies: one row per (user, title), titles compared by their lower-case key.
extension SQLStore: MovieStore {
    package func addMovie(_ movie: MovieRecord, userID: Int64, at: Int64) throws -> MovieRecord {
        try explainingMovieRefusals(movie, userID: userID, adding: true) {
            try translatingErrors("adding movie") {
                try sql.execute(
                    """
                    INSERT INTO movies (user_id, title, title_key, genre, sales, created_at, updated_at)
                    VALUES (\(userID), \(movie.title), \(MovieRecord.titleKey(movie.title)), \(movie.genre), \(movie.sales), \(at), \(at))
                    """)
                return movie
            }
        }
    }

    package func deleteMovie(title: String, userID: Int64) throws {
        try translatingErrors("deleting movie") {
            let deleted = try sql.execute("DELETE FROM movies WHERE user_id = \(userID) AND title_key = \(MovieRecord.titleKey(title))")
            guard deleted > 0 else { throw StoreError(.notFound, "no movie titled \"\(title)\"") }
        }
    }

    package func movie(title: String, userID: Int64) throws -> MovieRecord? {
        try translatingErrors("looking up movie") {
            try sql.queryFirst(
                "\(Self.movieColumns) WHERE user_id = \(userID) AND title_key = \(MovieRecord.titleKey(title))",
                StoreRows.movie)
        }
    }

    package func setMovieSales(title: String, sales: Int64, userID: Int64, at: Int64) throws -> MovieRecord {
        try translatingErrors("changing ticket sales") {
            // One statement changes and returns the row, so there is no window between them.
            guard
                let movie = try sql.queryFirst(
                    """
                    UPDATE movies SET sales = \(sales), updated_at = \(at) \
                    WHERE user_id = \(userID) AND title_key = \(MovieRecord.titleKey(title))
                    RETURNING title, genre, sales
                    """, StoreRows.movie)
            else {
                throw StoreError(.notFound, "no movie titled \"\(title)\"")
            }
            return movie
        }
    }

    package func updateMovie(title: String, to movie: MovieRecord, userID: Int64, at: Int64) throws -> MovieRecord {
        try explainingMovieRefusals(movie, userID: userID, adding: false) {
            try translatingErrors("changing movie") {
                guard
                    let updated = try sql.queryFirst(
                        """
                        UPDATE movies SET title = \(movie.title), title_key = \(MovieRecord.titleKey(movie.title)), genre = \(movie.genre),
                                          sales = \(movie.sales), updated_at = \(at)
                        WHERE user_id = \(userID) AND title_key = \(MovieRecord.titleKey(title))
                        RETURNING title, genre, sales
                        """, StoreRows.movie)
                else {
                    throw StoreError(.notFound, "no movie titled \"\(title)\"")
                }
                return updated
            }
        }
    }

    package func movies(userID: Int64) throws -> [MovieRecord] {
        try translatingErrors("listing movies") {
            // Keys in byte order (on SQLite the unique index (user_id, title_key) yields it without
            // a sort); the title breaks ties between keys that only look alike.
            try sql.query(
                "\(Self.movieColumns) WHERE user_id = \(userID) ORDER BY \(engine.bytewise("title_key")), \(engine.bytewise("title"))",
                StoreRows.movie)
        }
    }

    package func movieCount(userID: Int64) throws -> Int {
        try translatingErrors("counting movies") {
            try sql.queryFirst("SELECT count(*) AS n FROM movies WHERE user_id = \(userID)") { $0.int("n") } ?? 0
        }
    }

    static let movieColumns: SQL = "SELECT title, genre, sales FROM movies"
}
