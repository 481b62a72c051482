import Foundation
import SQLite
import Testing
@testable import Server

@Suite("Movie store")
struct MovieStoreTests {
    @Test("the movies table is STRICT, and its checks refuse negative sales and text")
    func schemaRefusesBadRows() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let database = fixture.store.database
            let sql = try #require(try database.queryFirst("SELECT sql FROM sqlite_schema WHERE name = 'movies'") { $0.string(at: 0) })
            #expect(sql.contains("STRICT"))
            let insert = "INSERT INTO movies (user_id, title, title_key, genre, sales, created_at, updated_at) VALUES (?1, 'T', 't', 'G', ?2, 0, 0)"
            #expect(throws: SQLiteError.self) { try database.run(insert, [.integer(fixture.alice.id), .integer(-1)]) }
            #expect(throws: SQLiteError.self) { try database.run(insert, [.integer(fixture.alice.id), .text("twelve")]) }
            #expect(throws: SQLiteError.self) { try database.run(insert, [.integer(999), .integer(1)]) }
            #expect(try fixture.store.movieCount(userID: fixture.alice.id) == 0)
        }
    }

    @Test("a movie is found by its title in any case, and keeps the spelling it was added with")
    func titlesAreFoundInAnyCase() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            _ = try store.addMovie(MovieRecord(title: "Amélie", genre: "Comedy", sales: 174_000_000), userID: fixture.alice.id, at: 1)
            #expect(try store.movie(title: "AMÉLIE", userID: fixture.alice.id)?.title == "Amélie")
            // The same title typed with a combining accent is the same movie.
            #expect(try store.movie(title: "ame\u{301}lie", userID: fixture.alice.id)?.genre == "Comedy")
            #expect(try store.movie(title: "Amelie", userID: fixture.alice.id) == nil)
        }
    }

    @Test("a second movie with the same title in another case is refused and nothing changes")
    func duplicateTitlesAreRefused() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            _ = try store.addMovie(MovieRecord(title: "Casablanca", genre: "Drama", sales: 10), userID: fixture.alice.id, at: 1)
            do {
                _ = try store.addMovie(MovieRecord(title: "CASABLANCA", genre: "Romance", sales: 99), userID: fixture.alice.id, at: 2)
                Issue.record("a duplicate title was added")
            } catch let error as StoreError {
                #expect(error.kind == .conflict)
                #expect(error.message.contains("\"Casablanca\""), "names the stored title: \(error.message)")
            }
            #expect(try store.movies(userID: fixture.alice.id) == [MovieRecord(title: "Casablanca", genre: "Drama", sales: 10)])
            // Another user may keep the same title.
            _ = try store.addMovie(MovieRecord(title: "casablanca", genre: "Drama", sales: 1), userID: fixture.bob.id, at: 3)
            #expect(try store.movieCount(userID: fixture.bob.id) == 1)
        }
    }

    @Test("movies are listed by title ignoring case, and each user sees only their own")
    func listingOrderAndIsolation() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
            for (title, sales) in [("up", 3), ("Casablanca", 1), ("Échappées", 4), ("alien", 2), ("Zodiac", 5)] {
                _ = try store.addMovie(MovieRecord(title: title, genre: "G", sales: Int64(sales)), userID: fixture.alice.id, at: 1)
            }
            _ = try store.addMovie(MovieRecord(title: "Bob's", genre: "G", sales: 0), userID: fixture.bob.id, at: 1)
            #expect(try store.movies(userID: fixture.alice.id).map(\.title) == ["alien", "Casablanca", "up", "Zodiac", "Échappées"])
            #expect(try store.movies(userID: fixture.bob.id).map(\.title) == ["Bob's"])
            #expect(try store.movies(userID: fixture.carol.id).isEmpty)
        }
    }

    @Test("sales change in place, and a missing title is not found for changes and deletes")
    func salesChangeAndDeletes() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            let store = fixture.store
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

    @Test("a user's movies go with the user")
    func moviesCascadeWithTheirUser() throws {
        try withTemporaryDatabase { path in
            let fixture = try StoreFixture(path: path)
            _ = try fixture.store.addMovie(MovieRecord(title: "Up", genre: "Animation", sales: 1), userID: fixture.bob.id, at: 1)
            try fixture.store.database.run("DELETE FROM users WHERE id = ?1", [.integer(fixture.bob.id)])
            #expect(try fixture.store.database.scalar("SELECT count(*) FROM movies") == 0)
        }
    }
}
