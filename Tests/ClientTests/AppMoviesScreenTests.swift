import Foundation
import TerminalUI
import TestSupport
import Testing
import Wire

@testable import Client

/// The Movies tab's search and form against a real server.
@Suite("App: Movies", .serialized)
struct AppMoviesScreenTests {
    static func moviesTab(_ server: TestServer, _ titles: [String]) throws -> (AppModel, SnapshareSession, TemporaryDirectory) {
        let home = TemporaryDirectory("app-home")
        let session = try server.registeredSession("cinephile")
        for (index, title) in titles.enumerated() {
            _ = try session.addMovie(MovieInfo(title: title, genre: "Drama", sales: UInt64(index + 1) * 1000))
        }
        let app = AppScreenTests.app(session, home: home.path)
        AppScreenTests.press(app, .character("5"))
        return (app, session, home)
    }

    @Test("a search that finds nothing says no title matches (not that there are no movies), and the next search starts empty")
    func searchFindingNothing() throws {
        let server = try TestServer()
        let (app, _, _) = try Self.moviesTab(server, ["Alien", "Brazil", "Casablanca", "Dune"])
        AppScreenTests.press(app, .character("s"))
        AppScreenTests.type(app, "zzz")
        AppScreenTests.press(app, .enter)
        var shown = AppScreenTests.screen(app, columns: 80, rows: 24)
        #expect(shown.contains("No movie matches \"zzz\"") && !shown.contains("No movies yet"), "\(shown)")
        AppScreenTests.press(app, .character("s"))
        AppScreenTests.type(app, "ali")
        shown = AppScreenTests.screen(app, columns: 80, rows: 24)
        #expect(shown.contains("Search: ali") && !shown.contains("zzzali"), "the last search is not kept in the field: \(shown)")
        AppScreenTests.press(app, .enter)
        shown = AppScreenTests.screen(app, columns: 80, rows: 24)
        #expect(shown.contains("Movies matching \"ali\"") && shown.contains("Alien") && shown.contains("Record 1 of 1"), "\(shown)")
        AppScreenTests.press(app, .escape)
        #expect(AppScreenTests.screen(app, columns: 80, rows: 24).contains("Record 1 of 4"))
    }

    @Test("Add with the ticket sales left empty saves nothing and asks for them, as `movie add` requires --sales")
    func salesRequired() throws {
        let server = try TestServer()
        let (app, session, _) = try Self.moviesTab(server, [])
        AppScreenTests.press(app, .character("a"))
        AppScreenTests.type(app, "Alien")
        AppScreenTests.press(app, .tab)
        AppScreenTests.type(app, "Horror")
        AppScreenTests.press(app, .enter)
        #expect(
            app.status?.isError == true && app.status?.text.hasPrefix("A movie needs its ticket sales") == true, "\(app.status?.text ?? "")"
        )
        #expect(try session.movies().isEmpty, "saved with $0")
        #expect(AppScreenTests.screen(app, columns: 80, rows: 24).contains("Add a movie"), "the form stays, the sales field focused")
        AppScreenTests.type(app, "$80,000,000")
        AppScreenTests.press(app, .enter)
        #expect(app.status?.text == "Added \"Alien\"")
        #expect(try session.movies().map(\.sales) == [80_000_000])
    }
}
