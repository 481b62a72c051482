import Testing

@testable import Server

/// What every engine's `MovieStore` does.
@Suite("Movie store contract")
struct MovieStoreContract {
    @Test("a movie is found by its title in any case, and keeps the spelling it was added with", arguments: StoreEngine.all)
    func titlesAreFoundInAnyCase(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let amelie = MovieRecord(title: "Amélie", genre: "Comedy", sales: 174_000_000)
            #expect(try store.addMovie(amelie, userID: fixture.alice.id, at: 1) == amelie)
            #expect(try store.movie(title: "AMÉLIE", userID: fixture.alice.id)?.title == "Amélie")
            // The same title typed with a combining accent is the same movie.
            #expect(try store.movie(title: "ame\u{301}lie", userID: fixture.alice.id)?.genre == "Comedy")
            #expect(try store.movie(title: "Amelie", userID: fixture.alice.id) == nil)
            #expect(try store.movie(title: "Amélie", userID: fixture.bob.id) == nil)
        }
    }

    @Test("a second movie with the same title in another case is refused and nothing changes", arguments: StoreEngine.all)
    func duplicateTitlesAreRefused(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            _ = try store.addMovie(MovieRecord(title: "Casablanca", genre: "Drama", sales: 10), userID: fixture.alice.id, at: 1)
            do {
                _ = try store.addMovie(MovieRecord(title: "CASABLANCA", genre: "Romance", sales: 99), userID: fixture.alice.id, at: 2)
                Issue.record("a duplicate title was added")
            } catch let error as StoreError {
                #expect(error.kind == .conflict)
                #expect(error.message.contains("\"Casablanca\""), "names the stored title: \(error.message)")
            }
            // The same inside a transaction, as the server's writer runs every job (a refused
            // statement must not leave the transaction unusable for explaining the refusal).
            try store.transaction {
                do {
                    _ = try store.addMovie(MovieRecord(title: "casaBLANCA", genre: "Romance", sales: 99), userID: fixture.alice.id, at: 2)
                    Issue.record("a duplicate title was added")
                } catch let error as StoreError {
                    #expect(error.message.contains("\"Casablanca\""), "names the stored title: \(error.message)")
                }
                #expect(try store.movieCount(userID: fixture.alice.id) == 1)
            }
            #expect(try store.movies(userID: fixture.alice.id) == [MovieRecord(title: "Casablanca", genre: "Drama", sales: 10)])
            // Another user may keep the same title.
            _ = try store.addMovie(MovieRecord(title: "casablanca", genre: "Drama", sales: 1), userID: fixture.bob.id, at: 3)
            #expect(try store.movieCount(userID: fixture.bob.id) == 1)
            #expect(
                storeErrorKind {
                    _ = try store.addMovie(MovieRecord(title: "Up", genre: "Animation", sales: 1), userID: 999, at: 4)
                } == .notFound)
        }
    }

    @Test("movies are listed by title ignoring case, and each user sees only their own", arguments: StoreEngine.all)
    func listingOrderAndIsolation(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            for (title, sales) in [("up", 3), ("Casablanca", 1), ("Échappées", 4), ("alien", 2), ("Zodiac", 5)] {
                _ = try store.addMovie(MovieRecord(title: title, genre: "G", sales: Int64(sales)), userID: fixture.alice.id, at: 1)
            }
            _ = try store.addMovie(MovieRecord(title: "Bob's", genre: "G", sales: 0), userID: fixture.bob.id, at: 1)
            #expect(try store.movies(userID: fixture.alice.id).map(\.title) == ["alien", "Casablanca", "up", "Zodiac", "Échappées"])
            #expect(try store.movieCount(userID: fixture.alice.id) == 5)
            #expect(try store.movies(userID: fixture.bob.id).map(\.title) == ["Bob's"])
            #expect(try store.movies(userID: fixture.carol.id).isEmpty)
        }
    }

    @Test("sales change in place, and a missing title is not found for changes and deletes", arguments: StoreEngine.all)
    func salesChangeAndDeletes(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            _ = try store.addMovie(MovieRecord(title: "Up", genre: "Animation", sales: 1), userID: fixture.alice.id, at: 1)
            let changed = try store.setMovieSales(title: "UP", sales: Int64.max, userID: fixture.alice.id, at: 2)
            #expect(changed == MovieRecord(title: "Up", genre: "Animation", sales: Int64.max))
            #expect(try store.movie(title: "up", userID: fixture.alice.id)?.sales == Int64.max)
            #expect(storeErrorKind { _ = try store.setMovieSales(title: "Up", sales: 5, userID: fixture.bob.id, at: 3) } == .notFound)
            #expect(storeErrorKind { try store.deleteMovie(title: "Up", userID: fixture.bob.id) } == .notFound)
            try store.deleteMovie(title: "uP", userID: fixture.alice.id)
            #expect(storeErrorKind { try store.deleteMovie(title: "Up", userID: fixture.alice.id) } == .notFound)
            #expect(try store.movieCount(userID: fixture.alice.id) == 0)
        }
    }

    @Test(
        "a movie's title, genre and sales change together; a title that is another movie's is refused",
        arguments: StoreEngine.all)
    func updateMovie(engine: StoreEngine) throws {
        try engine.withStore { store in
            let fixture = try StoreFixture(store: store)
            let alice = fixture.alice.id
            _ = try store.addMovie(MovieRecord(title: "Alien", genre: "Horror", sales: 80), userID: alice, at: 1)
            _ = try store.addMovie(MovieRecord(title: "Up", genre: "Animation", sales: 1), userID: alice, at: 1)
            let aliens = MovieRecord(title: "Aliens", genre: "Action", sales: 130)
            #expect(try store.updateMovie(title: "ALIEN", to: aliens, userID: alice, at: 2) == aliens)
            #expect(try store.movie(title: "alien", userID: alice) == nil)
            #expect(try store.movies(userID: alice) == [aliens, MovieRecord(title: "Up", genre: "Animation", sales: 1)])
            // Only the case changes: still the same movie.
            let upper = MovieRecord(title: "UP", genre: "Animation", sales: 2)
            #expect(try store.updateMovie(title: "up", to: upper, userID: alice, at: 3) == upper)
            do {
                _ = try store.updateMovie(title: "Up", to: MovieRecord(title: "aliens", genre: "G", sales: 0), userID: alice, at: 4)
                Issue.record("a title taken by another movie was accepted")
            } catch let error as StoreError {
                #expect(error.kind == .conflict)
                #expect(error.message.contains("\"Aliens\""), "names the stored title: \(error.message)")
            }
            #expect(try store.movie(title: "up", userID: alice) == upper)
            #expect(storeErrorKind { _ = try store.updateMovie(title: "Alien", to: aliens, userID: alice, at: 5) } == .notFound)
            #expect(storeErrorKind { _ = try store.updateMovie(title: "Up", to: aliens, userID: fixture.bob.id, at: 5) } == .notFound)
        }
    }
}
