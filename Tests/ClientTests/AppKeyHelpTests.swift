import Foundation
import Imaging
import TerminalUI
import TestSupport
import Testing
import Wire

@testable import Client

/// The `?` help and the dispatch of every screen come from one table: the help shows each of its
/// lines, and a key no line names does nothing. No server: every request fails at once.
@Suite("App keys and their help", .serialized)
struct AppKeyHelpTests {
    /// An app without a server, on the Post tab when `signedIn`, else on the login form;
    /// `woken` is signalled whenever something wakes the app (the camera's frames).
    static func app(home: TemporaryDirectory, signedIn: Bool = true, woken: DispatchSemaphore? = nil) -> AppModel {
        let backend = AppBackend(
            connect: { () throws(ClientError) -> SnapshareSession in throw ClientError(.local, "no server in this test") },
            inline: true, wake: { woken?.signal() })
        let app = AppModel(
            backend: backend, environment: [:], state: ClientState(directory: home.path), depth: .plain, colour: false,
            makeScreens: AppRunner.screens)
        // The Camera tile's preview: FFmpeg's still grey picture, the same frame after frame.
        app.cameraDevice = .filter(spec: "color=c=gray:size=64x48:rate=10")
        app.start()
        guard signedIn else { return app }
        app.signedIn(
            "tester",
            welcome: Welcome(
                version: 1, serverName: "test", maxFrameBytes: 6 << 20, maxFrameBytesBeforeLogin: 16_384,
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
        (
            "Vacations: one open", [.character("4"), .character("n")] + "Trip".map(Key.character) + [.enter, .enter], false,
            "Itinerary, Tag Search"
        ),
        (
            "Vacations: its tags searched",
            [.character("4"), .character("n")] + "Trip".map(Key.character) + [.enter, .enter, .character("/")],
            true, "the tags to find"
        ),
        ("Movies", [.character("5")], false, "search the titles"),
        ("Movies: the form", [.character("5"), .character("a")], true, "the title, genre or ticket sales"),
        ("Movies: the search", [.character("5"), .character("s")], true, "the words to find in the titles"),
    ]

    static func rows(_ app: AppModel, columns: Int = 80, rows: Int = 24) -> [String] {
        let grid = app.render(columns: columns, rows: rows)
        return (0..<rows).map { grid.text(ofRow: $0) }
    }

    /// Presses `keys`, then waits (up to 10 s) for the camera's first picture if they opened it:
    /// each frame wakes the app (`woken`, given to `app`).
    static func reach(_ app: AppModel, _ keys: [Key], woken: DispatchSemaphore) {
        for key in keys { app.handle(.key(key)) }
        let deadline = DispatchTime.now() + 10
        while rows(app).contains(where: { $0.contains("Waiting for the first picture") }), woken.wait(timeout: deadline) == .success {}
    }

    @Test("the ? help of each screen shows every line of its key table and the app's, in an 80x24 window", arguments: states.map(\.name))
    func helpShowsEveryKey(state: String) {
        let home = TemporaryDirectory("app-home")
        let woken = DispatchSemaphore(value: 0)
        let app = Self.app(home: home, signedIn: !state.hasPrefix("Login"), woken: woken)
        let (_, keys, _, only) = Self.states.first { $0.name == state }!
        Self.reach(app, keys, woken: woken)
        let expected = app.current.keyHelp + app.keys.help
        #expect(expected.contains { $0.meaning == only }, "\(state) is reached")
        // `?` is a letter for the field while typing; the help is the same overlay.
        app.overlay = .help
        let shown = Self.rows(app)
        for line in expected {
            #expect(
                shown.contains { $0.contains(line.keys + " ") && $0.contains(line.meaning) },
                "\(state): \(line) in \(shown.joined(separator: "\n"))")
        }
    }

    /// The keys of each case of `screen`'s table.
    static func triggers<Screen: AppScreen>(of screen: Screen) -> [[KeyTrigger]] {
        screen.keys.bindings.flatMap { $0.cases.map(\.triggers) }
    }

    /// Every key we can name: characters, the named keys, Ctrl and a letter.
    static let everyKey: [Key] =
        (32...126).map { .character(Character(Unicode.Scalar($0))) }
        + [.enter, .tab, .backTab, .backspace, .escape, .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete]
        + (1...12).map { .function($0) } + "abcdefghijklmnopqrstuvwxyz".map { .control($0) }

    @Test("a key that no line of the help names changes nothing", arguments: states.filter { !$0.typing }.map(\.name))
    func unnamedKeysDoNothing(state: String) {
        let home = TemporaryDirectory("app-home")
        let woken = DispatchSemaphore(value: 0)
        let app = Self.app(home: home, signedIn: !state.hasPrefix("Login"), woken: woken)
        let (_, keys, _, _) = Self.states.first { $0.name == state }!
        Self.reach(app, keys, woken: woken)
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
        guard case .help? = app.overlay else {
            Issue.record("F1 did not open the help")
            return
        }
        AppScreenTests.press(app, .escape)
        // The buttons take no typing: ? and q work there.
        AppScreenTests.press(app, .tab, .tab, .tab)
        #expect(Self.rows(app)[0].hasSuffix("? keys · q quit "), "\(Self.rows(app)[0])")
    }

    // MARK: Every part on top: the screens, the overlays, the trust screen

    /// What can be over a screen, each opened over the Post tab.
    static let overlays = ["the ? help", "a box of text", "a snap opened", "a photo", "a report's reason", "a question"]

    /// The trust screen, for a certificate that changed and for one that cannot be trusted at all.
    static let refusals = ["a changed certificate", "a certificate refused"]

    /// Every state the dispatch can be in: the screens' states, the overlays, the refusals.
    static let everyState = states.map(\.name) + overlays + refusals

    /// A picture to show: sample 3, decoded.
    static func picture() throws -> PictureCells {
        PictureCells(try ImageCodec.decode(try SampleLibrary.all()[2].bytes()))
    }

    /// An app in `state` (one of `everyState`), drawn once at 80x24; `settled`, with the
    /// camera's first picture shown when the state is the camera's.
    static func reached(_ state: String, home: TemporaryDirectory, settled: Bool = true) throws -> AppModel {
        if refusals.contains(state) { return refused(home: home, changed: state == "a changed certificate") }
        if let screen = states.first(where: { $0.name == state }) {
            let woken = DispatchSemaphore(value: 0)
            let app = Self.app(home: home, signedIn: !state.hasPrefix("Login"), woken: woken)
            if settled { reach(app, screen.keys, woken: woken) } else { for key in screen.keys { app.handle(.key(key)) } }
            _ = rows(app)
            return app
        }
        let app = Self.app(home: home)
        switch state {
        case "the ? help": app.handle(.key(.character("?")))
        case "a box of text": app.show(.text(title: "Server trusted on first use", lines: ["Compare it with the one the server printed."]))
        case "a snap opened": app.overlay = PictureView.overlay(try picture(), describing: "ann · Memes · just now · #7", reporting: 7)
        case "a photo": app.overlay = PictureView.overlay(try picture(), describing: "Untitled · Paris")
        case "a report's reason": app.present(.report(7, app: app))
        default: app.confirm("Delete pin 1 and its album?") { _, finish in finish(.done) }
        }
        _ = rows(app)
        return app
    }

    /// An app whose server's certificate is refused: one that changed since it was trusted, or
    /// one that cannot be trusted at all.
    static func refused(home: TemporaryDirectory, changed: Bool) -> AppModel {
        let backend = AppBackend(
            connect: { () throws(ClientError) -> SnapshareSession in
                throw ClientError.certificate(
                    "the certificate of class.example:7443 " + (changed ? "has CHANGED since you first trusted it" : "is not trusted"),
                    remedy: changed
                        ? .checkChangedCertificate(
                            serverKey: "class.example:7443", trustedHex: String(repeating: "ab", count: 32),
                            presentedHex: String(repeating: "cd", count: 32)) : nil)
            }, inline: true, wake: {})
        let app = AppModel(
            backend: backend, environment: [:], state: ClientState(directory: home.path), depth: .plain, colour: false,
            makeScreens: AppRunner.screens)
        app.start()
        _ = rows(app)
        return app
    }

    /// One entry the dispatch tries now: its help line, its keys, and whether it is the app's
    /// (tried after the part on top).
    struct Entry {
        let keys: String
        let meaning: String
        let triggers: [KeyTrigger]
        let isApp: Bool
    }

    /// The entries the dispatch tries in `app`'s state, in order: the part on top's (the trust
    /// screen, the overlay, or the screen), then the app's.
    static func entries(_ app: AppModel) -> [Entry] {
        if app.trust.refusal != nil { return entries(of: app.trust.keys, app: false) + entries(of: AppKeys.everywhere, app: true) }
        if let overlay = app.overlay { return entries(of: overlay.keys, app: false) + entries(of: AppKeys.everywhere, app: true) }
        return entries(of: app.current) + entries(of: app.keys, app: true)
    }

    static func entries<Target>(of table: KeyTable<Target>, app: Bool) -> [Entry] {
        zip(table.bindings, table.help).map {
            Entry(keys: $1.keys, meaning: $1.meaning, triggers: $0.cases.flatMap(\.triggers), isApp: app)
        }
    }

    static func entries<Screen: AppScreen>(of screen: Screen) -> [Entry] { entries(of: screen.keys, app: false) }

    /// An event that sets `trigger` off: a click on the first tab for the app's click, on the
    /// screen for a screen's; a letter for the typing or any key.
    static func event(_ trigger: KeyTrigger, app isApp: Bool) -> InputEvent {
        switch trigger {
        case .key(let key): .key(key)
        case .character(let character): .key(.character(character))
        case .click: .mouse(MouseEvent(action: .press(.left), column: 2, row: isApp ? 0 : 5))
        case .wheelUp: .mouse(MouseEvent(action: .wheelUp, column: 5, row: 5))
        case .wheelDown: .mouse(MouseEvent(action: .wheelDown, column: 5, row: 5))
        case .typing, .anyKey: .key(.character("a"))
        }
    }

    /// Events no key table names in any state: the mouse moving, letting go, dragging.
    static let mouseOnly: [InputEvent] = [MouseEvent.Action.move, .release(.left), .drag(.left)].map {
        .mouse(MouseEvent(action: $0, column: 5, row: 5))
    }

    @Test(
        "every key an overlay or the trust screen answers to is said on it, and one it does not name changes nothing",
        arguments: overlays + refusals)
    func overlayKeysAreShown(state: String) throws {
        let home = TemporaryDirectory("app-home")
        let app = try Self.reached(state, home: home)
        let shown = Self.rows(app).joined(separator: "\n")
        let ownEntries = Self.entries(app).filter { !$0.isApp }
        // The field of a dialog shows the typing; a refusal puts two spaces between a key and what it does.
        for entry in ownEntries where entry.triggers != [.typing] {
            let line = Self.refusals.contains(state) ? "\(entry.keys)  \(entry.meaning)" : "\(entry.keys) \(entry.meaning)"
            #expect(shown.contains(line), "\(state): \"\(line)\" is not on screen:\n\(shown)")
        }
        let triggers = Self.entries(app).flatMap(\.triggers)
        for event in Self.everyKey.map({ InputEvent.key($0) }) + Self.mouseOnly + [.paste("pasted")]
        where !triggers.contains(where: { $0.matches(event, typing: false) }) {
            let before = Self.rows(app)
            let status = app.status?.text
            app.handle(event)
            #expect(Self.rows(app) == before && app.status?.text == status && !app.quitRequested, "\(state): \(event)")
        }
    }

    /// What a state's entries say, to see whether a key left the state.
    static func signature(_ app: AppModel) -> [String] {
        entries(app).map { "\($0.keys) \($0.meaning)" } + ["\(app.quitRequested) \(app.suspendRequested)"]
    }

    @Test("in every state, each key its help names is taken by the dispatch: help and dispatch read one table", arguments: everyState)
    func namedKeysAreTaken(state: String) throws {
        var homes = [TemporaryDirectory("app-home")]
        var app = try Self.reached(state, home: homes[0], settled: false)
        let entries = Self.entries(app)
        let signature = Self.signature(app)
        #expect(!entries.isEmpty)
        for entry in entries {
            for trigger in entry.triggers {
                let event = Self.event(trigger, app: entry.isApp)
                #expect(app.handle(event), "\(state): \(event), on the line \"\(entry.keys) \(entry.meaning)\", was not taken")
                _ = Self.rows(app)
                // A key that left the state: the next one starts from the state again.
                if Self.signature(app) != signature {
                    homes.append(TemporaryDirectory("app-home"))
                    app = try Self.reached(state, home: homes[homes.count - 1], settled: false)
                }
            }
        }
    }
}
