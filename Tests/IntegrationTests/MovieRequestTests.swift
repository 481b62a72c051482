import Client
import Foundation
import TestSupport
import Testing
import Wire

/// The favorite-movie requests over a real connection: the rules of docs/PROTOCOL.md 5.6 that
/// the command line cannot reach.
@Suite("Movie requests")
struct MovieRequestTests {
    @Test("sales above SQLite's largest integer are refused, and the limit itself is kept exactly")
    func salesBoundary() throws {
        let server = try TestServer()
        let ada = try server.registeredSession("ada")
        let error = clientError { _ = try ada.addMovie(MovieInfo(title: "Big", genre: "Epic", sales: UInt64(Int64.max) + 1)) }
        #expect(error?.serverCode == .invalidArgument)
        #expect(error?.message.contains("at most 9223372036854775807") == true)
        #expect(try ada.addMovie(MovieInfo(title: "Big", genre: "Epic", sales: UInt64(Int64.max))).sales == UInt64(Int64.max))
        #expect(clientError { _ = try ada.setMovieSales(title: "Big", sales: .max) }?.serverCode == .invalidArgument)
        #expect(try ada.findMovie(title: "big").sales == UInt64(Int64.max))
    }

    @Test("titles and genres are trimmed and checked, and a duplicate names the stored title")
    func titleAndGenreRules() throws {
        let server = try TestServer()
        let ada = try server.registeredSession("ada")
        #expect(
            try ada.addMovie(MovieInfo(title: "\t Ran \n", genre: " Drama ", sales: 4)) == MovieInfo(title: "Ran", genre: "Drama", sales: 4)
        )
        for movie in [
            MovieInfo(title: "", genre: "Drama", sales: 1), MovieInfo(title: "   ", genre: "Drama", sales: 1),
            MovieInfo(title: "X", genre: "", sales: 1), MovieInfo(title: String(repeating: "x", count: 201), genre: "Drama", sales: 1),
            MovieInfo(title: "Tab\there", genre: "Drama", sales: 1), MovieInfo(title: "X", genre: "Esc\u{1B}[2J", sales: 1),
        ] {
            #expect(clientError { _ = try ada.addMovie(movie) }?.serverCode == .invalidArgument, "\(movie)")
        }
        let duplicate = clientError { _ = try ada.addMovie(MovieInfo(title: "RAN", genre: "War", sales: 9)) }
        #expect(duplicate?.serverCode == .alreadyExists)
        #expect(duplicate?.message == "you already have a movie titled \"Ran\"")
        #expect(try ada.movies() == [MovieInfo(title: "Ran", genre: "Drama", sales: 4)])
        // The longest title and genre are accepted.
        let longest = String(repeating: "x", count: 200)
        #expect(try ada.addMovie(MovieInfo(title: longest, genre: String(repeating: "g", count: 60), sales: 0)).title == longest)
    }

    @Test("another user's movies are invisible, and the requests need a login")
    func privacyAndLogin() throws {
        let server = try TestServer()
        let ada = try server.registeredSession("ada")
        let bob = try server.registeredSession("bob")
        _ = try ada.addMovie(MovieInfo(title: "Solaris", genre: "Science fiction", sales: 1))
        #expect(clientError { _ = try bob.findMovie(title: "Solaris") }?.serverCode == .notFound)
        #expect(clientError { _ = try bob.setMovieSales(title: "Solaris", sales: 2) }?.serverCode == .notFound)
        #expect(clientError { try bob.deleteMovie(title: "Solaris") }?.serverCode == .notFound)
        #expect(try bob.movies().isEmpty)
        let (anonymous, home) = try server.session()
        defer { _ = home }
        #expect(clientError { _ = try anonymous.movies() }?.serverCode == .authRequired)
        #expect(clientError { _ = try anonymous.addMovie(MovieInfo(title: "A", genre: "B", sales: 1)) }?.serverCode == .authRequired)
        #expect(try ada.findMovie(title: "SOLARIS").sales == 1, "the server is still up and unchanged")
    }
}
