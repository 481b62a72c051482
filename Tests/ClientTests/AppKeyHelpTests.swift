import Foundation
import Testing
import TerminalUI
import TestSupport
import Wire
@testable import Client

/// The `?` help and the dispatch of every screen come from one table: the help shows each of its
/// lines, and a key no line names does nothing. No server: every request fails at once.
@Suite("App keys and their help", .serialized)
struct AppKeyHelpTests {
    /// An app without a server, on the Post tab when `signedIn`, else on the login form.
    static func app(home: TemporaryDirectory, signedIn: Bool = true) -> AppModel {
        let backend = AppBackend(connect: { () throws(ClientError) -> SnapshareSession in throw ClientError(.local, "no server in this test") },
                                 inline: true, wake: {})
        let app = AppModel(backend: backend, environment: [:], state: ClientState(directory: home.path), depth: .plain, colour: false,
                           makeScreens: AppRunner.screens)
        // The Camera tile's preview: FFmpeg's still grey picture, the same frame after frame.
        app.cameraDevice = .filter(spec: "color=c=gray:size=64x48:rate=10")
        app.start()
        guard signedIn else { return app }
        app.signedIn("tester", welcome: Welcome(version: 1, serverName: "test", maxFrameBytes: 6 << 20, maxFrameBytesBeforeLogin: 16_384,
                                                maxRequestsInFlight: 8, maxImageBytes: 4 << 20, maxImageDimension: 4096,
                                                maxImagePixels: 16 << 20, idleTimeoutSeconds: 300, serverTime: Timestamp.now()))
        return app
    }

    /// The keys that lead from the Post tab (or the login form) to each state of a screen,
    /// whether a field then takes the typing, and a line of help only that state has.
    static let states: [(name: String, keys: [Key], typing: Bool, only: String)] = [
        ("Login: a field", [], true, "log in from any field"), ("Login: a button", [.tab, .tab, .tab], false, "quit (on a button)"),
        ("Post: the pictures", [], false, "post a PNG or JPEG file instead (type or drop its path)"),
        ("Post: a file's path", [.character("o")], true, "the file's path (Ctrl-U clears)"),
        ("Post: the camera", [.enter], false, "take the picture (it stays still)"),
        ("Post: the feeds", [.right, .enter], false, "back to the pictures"),
        ("Feeds", [.character("2")], false, "open an unread snap (once); yours: who opened it"),
        ("Map", [.character("3")], false, "drop a pin at the cross-hair"),
        ("Vacations", [.character("4")], false, "new vacation"),
        ("Vacations: naming one", [.character("4"), .character("n")], true, "the new vacation's name"),
        ("Vacations: one open", [.character("4"), .character("n")] + "Trip".map(Key.character) + [.enter, .enter], false,
         "Itinerary, Tag Search"),
        ("Vacations: its tags searched", [.character("4"), .character("n")] + "Trip".map(Key.character) + [.enter, .enter, .character("/")],
         true, "the tags to find"),
        ("Movies", [.character("5")], false, "search the titles"),
        ("Movies: the form", [.character("5"), .character("a")], true, "the title, genre or ticket sales"),
        ("Movies: the search", [.character("5"), .character("s")], true, "the words to find in the titles"),
    ]

    static func rows(_ app: AppModel, columns: Int = 80, rows: Int = 24) -> [String] {
        let grid = app.render(columns: columns, rows: rows)
        return (0..<rows).map { grid.text(ofRow: $0) }
    }

    /// Presses `keys`, then waits (up to 10 s) for the camera's first picture if they opened it.
    static func reach(_ app: AppModel, _ keys: [Key]) {
        for key in keys { app.handle(.key(key)) }
        for _ in 0..<200 where rows(app).contains(where: { $0.contains("Waiting for the first picture") }) { Thread.sleep(forTimeInterval: 0.05) }
    }

    @Test("the ? help of each screen shows every line of its key table and the app's, in an 80x24 window", arguments: states.map(\.name))
    func helpShowsEveryKey(state: String) {
        let home = TemporaryDirectory("app-home")
        let app = Self.app(home: home, signedIn: !state.hasPrefix("Login"))
        let (_, keys, _, only) = Self.states.first { $0.name == state }!
        Self.reach(app, keys)
        let expected = app.current.keyHelp + app.keys.help
        #expect(expected.contains { $0.meaning == only }, "\(state) is reached")
        // `?` is a letter for the field while typing; the help is the same overlay.
        app.overlay = .help
        let shown = Self.rows(app)
        for line in expected {
            #expect(shown.contains { $0.contains(line.keys + " ") && $0.contains(line.meaning) }, "\(state): \(line) in \(shown.joined(separator: "\n"))")
        }
    }

    /// The keys of each case of `screen`'s table.
    static func triggers<Screen: AppScreen>(of screen: Screen) -> [[KeyTrigger]] {
        screen.keys.bindings.flatMap { $0.cases.map(\.triggers) }
    }

    /// Every key we can name: characters, the named keys, Ctrl and a letter.
    static let everyKey: [Key] = (32...126).map { .character(Character(Unicode.Scalar($0))) }
        + [.enter, .tab, .backTab, .backspace, .escape, .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete]
        + (1...12).map { .function($0) } + "abcdefghijklmnopqrstuvwxyz".map { .control($0) }

    @Test("a key that no line of the help names changes nothing", arguments: states.filter { !$0.typing }.map(\.name))
    func unnamedKeysDoNothing(state: String) {
        let home = TemporaryDirectory("app-home")
        let app = Self.app(home: home, signedIn: !state.hasPrefix("Login"))
        let (_, keys, _, _) = Self.states.first { $0.name == state }!
        Self.reach(app, keys)
        let triggers = Self.triggers(of: app.current) + app.keys.bindings.flatMap { $0.cases.map(\.triggers) }
        for key in Self.everyKey {
            let event = InputEvent.key(key)
            guard !triggers.joined().contains(where: { $0.matches(event, typing: false) }) else { continue }
            let before = Self.rows(app)
            let status = app.status?.text
            app.handle(event)
            #expect(Self.rows(app) == before && app.status?.text == status && app.overlay == nil, "\(state): \(key)")
        }
    }

    @Test("the help names only the tabs the user has: 6 for an admin, not for a student")
    func tabsInTheHelp() {
        let home = TemporaryDirectory("app-home")
        let app = Self.app(home: home)
        let student = app.keys.help.first { $0.meaning == "switch tabs" }?.keys
        #expect(student == "Tab Shift-Tab 1 2 3 4 5", "\(student ?? "")")
        app.signedIn("teacher", isAdmin: true, welcome: app.welcome!)
        #expect(app.keys.help.first { $0.meaning == "switch tabs" }?.keys == "Tab Shift-Tab 1 2 3 4 5 6")
    }

    @Test("the login form's header offers F1 and Ctrl-C while a field takes the typing (? and q are letters there), ? and q on a button")
    func loginHeaderOffersWhatWorks() {
        let home = TemporaryDirectory("app-home")
        let app = Self.app(home: home, signedIn: false)
        #expect(Self.rows(app)[0].hasSuffix("F1 keys · Ctrl-C quit "), "\(Self.rows(app)[0])")
        AppScreenTests.type(app, "q?")
        #expect(app.overlay == nil && !app.quitRequested && Self.rows(app).joined().contains("q?"), "typed into the name field")
        app.handle(.key(.function(1)))
        guard case .help? = app.overlay else { Issue.record("F1 did not open the help"); return }
        AppScreenTests.press(app, .escape)
        // The buttons take no typing: ? and q work there.
        AppScreenTests.press(app, .tab, .tab, .tab)
        #expect(Self.rows(app)[0].hasSuffix("? keys · q quit "), "\(Self.rows(app)[0])")
    }
}
