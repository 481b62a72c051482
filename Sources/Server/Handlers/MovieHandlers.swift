import Wire

/// Favorite movies: each user's own list, kept on the server (docs/PROTOCOL.md 5.6).
struct MovieHandlers: Sendable {
    let storage: StorageExecutor
    let logger: Logger
    let clock: WallClock

    func addMovie(_ request: AddMovie, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let movie = MovieRecord(
            title: try MovieInput.normalizedTitle(request.movie.title).get(),
            genre: try MovieInput.normalizedGenre(request.movie.genre).get(),
            sales: try MovieInput.validatedSales(request.movie.sales).get())
        let now = clock.now()
        let limit = MovieInput.maxMoviesPerUser
        // The count and the insert run in one job on the writer thread, so two concurrent adds
        // cannot both slip under the limit.
        let added = try await storage.write { store -> MovieRecord in
            guard try store.movieCount(userID: user.id) < limit else {
                throw InputError("you already keep \(limit) movies, the most allowed; delete some first")
            }
            return try store.addMovie(movie, userID: user.id, at: now)
        }
        logger.debug("\(user.name) added a movie")
        return HandlerOutcome(MovieResult(movie: MovieInfo(added)), for: context)
    }

    func deleteMovie(_ request: DeleteMovie, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let title = try MovieInput.normalizedTitle(request.title).get()
        try await storage.write { store in try store.deleteMovie(title: title, userID: user.id) }
        return HandlerOutcome(Ok(), for: context)
    }

    func findMovie(_ request: FindMovie, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let title = try MovieInput.normalizedTitle(request.title).get()
        guard let movie = try await storage.read({ store in try store.movie(title: title, userID: user.id) }) else {
            throw StoreError(.notFound, "no movie titled \"\(title)\"")
        }
        return HandlerOutcome(MovieResult(movie: MovieInfo(movie)), for: context)
    }

    func setMovieSales(_ request: SetMovieSales, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let title = try MovieInput.normalizedTitle(request.title).get()
        let sales = try MovieInput.validatedSales(request.sales).get()
        let now = clock.now()
        let movie = try await storage.write { store in
            try store.setMovieSales(title: title, sales: sales, userID: user.id, at: now)
        }
        return HandlerOutcome(MovieResult(movie: MovieInfo(movie)), for: context)
    }

    func updateMovie(_ request: UpdateMovie, _ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let title = try MovieInput.normalizedTitle(request.title).get()
        let movie = MovieRecord(
            title: try MovieInput.normalizedTitle(request.movie.title).get(),
            genre: try MovieInput.normalizedGenre(request.movie.genre).get(),
            sales: try MovieInput.validatedSales(request.movie.sales).get())
        let now = clock.now()
        let updated = try await storage.write { store in try store.updateMovie(title: title, to: movie, userID: user.id, at: now) }
        return HandlerOutcome(MovieResult(movie: MovieInfo(updated)), for: context)
    }

    func listMovies(_ user: AuthenticatedUser, _ context: RequestContext) async throws -> HandlerOutcome {
        let movies = try await storage.read { store in try store.movies(userID: user.id) }
        return HandlerOutcome(Movies(movies: movies.map(MovieInfo.init)), for: context)
    }
}
