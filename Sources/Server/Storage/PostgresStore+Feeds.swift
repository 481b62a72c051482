import PostgreSQL

extension PostgresStore: FeedStore, MovieStore {
    public func createFeed(name: String, at: Int64) throws -> FeedRecord {
        do {
            return try translatingErrors("creating feed") {
                let id = try connection.query("INSERT INTO feeds (name, created_at) VALUES ($1, $2) RETURNING id",
                                              [.text(name), .integer(at)])[0].int64("id")
                return FeedRecord(id: id, name: name, createdAt: at)
            }
        } catch let error as StoreError where error.kind == .conflict {
            throw StoreError(.conflict, "a feed named \(name) already exists")
        }
    }

    public func deleteFeed(named name: String) throws {
        try translatingErrors("deleting feed") {
            // Snaps, their images and views go with the feed (ON DELETE CASCADE), in one statement.
            let deleted = try connection.execute("DELETE FROM feeds WHERE ascii_lower(name) = ascii_lower($1)", [.text(name)])
            guard deleted > 0 else { throw StoreError(.notFound, "no feed named \(name)") }
        }
    }

    public func feed(named name: String) throws -> FeedRecord? {
        try translatingErrors("looking up feed") {
            try connection.query("SELECT id, name, created_at FROM feeds WHERE ascii_lower(name) = ascii_lower($1)", [.text(name)])
                .first.map { FeedRecord(id: $0.int64("id"), name: $0.string("name"), createdAt: $0.int64("created_at")) }
        }
    }

    public func feedSummaries(viewerID: Int64, now: Int64) throws -> [FeedSummary] {
        try translatingErrors("listing feeds") {
            try connection.query("""
                SELECT f.id, f.name,
                       (SELECT count(*) FROM snaps s
                        WHERE s.feed_id = f.id AND s.expires_at > $2 AND NOT s.image_erased) AS snap_count,
                       (SELECT count(*) FROM snaps s
                        WHERE s.feed_id = f.id AND s.expires_at > $2 AND NOT s.image_erased
                          AND s.poster_id <> $1
                          AND NOT EXISTS (SELECT 1 FROM views v WHERE v.snap_id = s.id AND v.viewer_id = $1)) AS unread_count
                FROM feeds f
                ORDER BY ascii_lower(f.name), f.id
                """, [.integer(viewerID), .integer(now)]).map { row in
                FeedSummary(id: row.int64("id"), name: row.string("name"),
                            snapCount: row.int64("snap_count"), unreadCount: row.int64("unread_count"))
            }
        }
    }

    public func resetFeed(id: Int64) throws -> Int {
        try translatingErrors("resetting feed") {
            try connection.execute("DELETE FROM snaps WHERE feed_id = $1", [.integer(id)])
        }
    }

    public func resetAllFeeds() throws -> Int {
        try translatingErrors("resetting all feeds") { try connection.execute("DELETE FROM snaps") }
    }

    // MARK: Movies

    public func addMovie(_ movie: MovieRecord, userID: Int64, at: Int64) throws -> MovieRecord {
        try explainingMovieRefusals(movie, userID: userID, adding: true) {
            try translatingErrors("adding movie") {
                try connection.execute("""
                    INSERT INTO movies (user_id, title, title_key, genre, sales, created_at, updated_at)
                    VALUES ($1, $2, $3, $4, $5, $6, $6)
                    """, [.integer(userID), .text(movie.title), .text(MovieRecord.titleKey(movie.title)),
                          .text(movie.genre), .integer(movie.sales), .integer(at)])
                return movie
            }
        }
    }

    public func deleteMovie(title: String, userID: Int64) throws {
        try translatingErrors("deleting movie") {
            let deleted = try connection.execute("DELETE FROM movies WHERE user_id = $1 AND title_key = $2",
                                                 [.integer(userID), .text(MovieRecord.titleKey(title))])
            guard deleted > 0 else { throw StoreError(.notFound, "no movie titled \"\(title)\"") }
        }
    }

    public func movie(title: String, userID: Int64) throws -> MovieRecord? {
        try translatingErrors("looking up movie") {
            try connection.query(Self.movieColumns + " WHERE user_id = $1 AND title_key = $2",
                                 [.integer(userID), .text(MovieRecord.titleKey(title))]).first.map(StoreRows.movie)
        }
    }

    public func setMovieSales(title: String, sales: Int64, userID: Int64, at: Int64) throws -> MovieRecord {
        try translatingErrors("changing ticket sales") {
            guard let movie = try connection.query("""
                UPDATE movies SET sales = $3, updated_at = $4 WHERE user_id = $1 AND title_key = $2 RETURNING title, genre, sales
                """, [.integer(userID), .text(MovieRecord.titleKey(title)), .integer(sales), .integer(at)]).first.map(StoreRows.movie) else {
                throw StoreError(.notFound, "no movie titled \"\(title)\"")
            }
            return movie
        }
    }

    public func updateMovie(title: String, to movie: MovieRecord, userID: Int64, at: Int64) throws -> MovieRecord {
        try explainingMovieRefusals(movie, userID: userID, adding: false) {
            try translatingErrors("changing movie") {
                guard let updated = try connection.query("""
                    UPDATE movies SET title = $3, title_key = $4, genre = $5, sales = $6, updated_at = $7
                    WHERE user_id = $1 AND title_key = $2
                    RETURNING title, genre, sales
                    """, [.integer(userID), .text(MovieRecord.titleKey(title)), .text(movie.title),
                          .text(MovieRecord.titleKey(movie.title)), .text(movie.genre), .integer(movie.sales), .integer(at)])
                    .first.map(StoreRows.movie) else {
                    throw StoreError(.notFound, "no movie titled \"\(title)\"")
                }
                return updated
            }
        }
    }

    public func movies(userID: Int64) throws -> [MovieRecord] {
        try translatingErrors("listing movies") {
            // COLLATE "C": the byte order SQLite sorts the keys in, whatever the database's locale.
            try connection.query(Self.movieColumns + " WHERE user_id = $1 ORDER BY title_key COLLATE \"C\", title COLLATE \"C\"",
                                 [.integer(userID)]).map(StoreRows.movie)
        }
    }

    public func movieCount(userID: Int64) throws -> Int {
        try translatingErrors("counting movies") {
            try connection.query("SELECT count(*) AS n FROM movies WHERE user_id = $1", [.integer(userID)])[0].int("n")
        }
    }

    static let movieColumns = "SELECT title, genre, sales FROM movies"

}
