import Foundation
import TerminalUI
import TestSupport
import Testing
import Wire

@testable import Client

/// The app's screens driven by events against a real server (real TLS, real SQLite), reading
/// the cell grid they draw: no terminal. The backend runs each request inline, in order.
@Suite("App screens", .serialized)
struct AppScreenTests {
    /// An app signed in as `session`'s user.
    static func app(_ session: SnapshareSession, home: String, colour: Bool = false) -> AppModel {
        let held = UncheckedSendable(session)
        let backend = AppBackend(connect: { () throws(ClientError) in held.value }, inline: true, wake: {})
        let app = AppModel(
            backend: backend, environment: [:], state: ClientState(directory: home), depth: .plain, colour: colour,
            makeScreens: AppRunner.screens)
        app.start()
        return app
    }

    static func screen(_ app: AppModel, columns: Int = 100, rows: Int = 30) -> String {
        let grid = app.render(columns: columns, rows: rows)
        return (0..<rows).map { grid.text(ofRow: $0) }.joined(separator: "\n")
    }

    static func press(_ app: AppModel, _ keys: Key...) {
        for key in keys { app.handle(.key(key)) }
    }

    static func type(_ app: AppModel, _ text: String) {
        for character in text { app.handle(.key(.character(character))) }
    }

    @Test("pick sample 3, post it to Memes; another app sees it unread, opens it once, and cannot open it again")
    func postAndOpenOnce() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let ann = Self.app(try server.registeredSession("ann"), home: home.path)
        #expect(Self.screen(ann).contains("Pick a picture"))
        #expect(ann.status?.text == "Signed in as ann")
        // Sample 3 is the third in the grid after the Camera tile: right three times.
        Self.press(ann, .right, .right, .right, .enter)
        let feeds = Self.screen(ann)
        #expect(feeds.contains("Post 3 ") && feeds.contains("to which feed?"))
        // Choose Memes among the feeds, by moving down until it is selected.
        for _ in 0..<10 where !Self.screen(ann).contains("◉ Memes") { Self.press(ann, .down) }
        Self.press(ann, .enter)
        // The snap's id and where the picture came from, as `snapshare post` says it.
        #expect(
            ann.status?.text.hasPrefix("Posted snap ") == true && ann.status?.text.contains(" to Memes (sample 3 (cat), ") == true,
            "\(ann.status?.text ?? "")")
        #expect(Self.screen(ann).contains("Pick a picture"), "back to the picker")

        let benHome = TemporaryDirectory("app-home")
        let ben = Self.app(try server.registeredSession("ben"), home: benHome.path)
        Self.press(ben, .character("2"))
        var listed = Self.screen(ben)
        #expect(listed.contains("Memes (1)") && listed.contains("ann") && listed.contains("● unread"))
        Self.press(ben, .enter)
        guard case .picture(_, let caption, _)? = ben.overlay else {
            Issue.record("the snap did not open full screen: \(ben.status?.text ?? "")")
            return
        }
        #expect(caption.hasPrefix("ann · Memes · "))
        #expect(!Self.screen(ben).contains("Feeds"), "full screen: the picture and its caption only")
        Self.press(ben, .character("x"))
        #expect(ben.overlay == nil, "any key closes it")
        listed = Self.screen(ben)
        #expect(listed.contains("○ read") && !listed.contains("● unread"))
        Self.press(ben, .enter)
        #expect(ben.status?.text.contains("already opened") == true)

        // The poster sees who opened it.
        Self.press(ann, .character("2"))
        #expect(Self.screen(ann).contains("➤ sent · opened by 1"))
        Self.press(ann, .enter)
        guard case .text(_, let lines)? = ann.overlay else {
            Issue.record("no viewers shown")
            return
        }
        #expect(lines.contains { $0.hasPrefix("ben · ") })
    }

    @Test("a new snap appears in Feeds on the next tick, without a key press")
    func feedsAreLive() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let poster = try server.registeredSession("poster")
        let viewer = Self.app(try server.registeredSession("viewer"), home: home.path)
        Self.press(viewer, .character("2"))
        #expect(!Self.screen(viewer).contains("poster"))
        _ = try poster.post(feed: "Random", image: try SampleLibrary.all()[3].bytes())
        viewer.tick()
        #expect(Self.screen(viewer).contains("poster"))
    }

    @Test("movies: add, next and previous stop at the ends with the exact messages, search, edit, delete")
    func movies() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let app = Self.app(try server.registeredSession("cinephile"), home: home.path)
        Self.press(app, .character("5"))
        #expect(Self.screen(app).contains("No movies yet"))
        for (title, genre, sales) in [("Alien", "Horror", "80000000"), ("Brazil", "Comedy", "9900000")] {
            Self.press(app, .character("a"))
            Self.type(app, title)
            Self.press(app, .tab)
            Self.type(app, genre)
            Self.press(app, .tab)
            Self.type(app, sales)
            Self.press(app, .enter)
            #expect(app.status?.text == "Added \"\(title)\"")
        }
        Self.press(app, .home)
        var shown = Self.screen(app)
        #expect(shown.contains("Record 2 of 2") && shown.contains("Brazil"), "the added record is shown")
        Self.press(app, .character("n"))
        #expect(app.status?.text == "No more records")
        Self.press(app, .character("p"))
        #expect(Self.screen(app).contains("Alien"))
        Self.press(app, .character("p"))
        #expect(app.status?.text == "Showing the first Record")
        Self.press(app, .character("s"))
        Self.type(app, "braz")
        Self.press(app, .enter)
        shown = Self.screen(app)
        #expect(shown.contains("Movies matching \"braz\"") && shown.contains("Record 1 of 1") && shown.contains("Brazil"))
        Self.press(app, .character("e"), .tab, .control("u"))
        Self.type(app, "Satire")
        Self.press(app, .enter)
        #expect(Self.screen(app).contains("Satire"))
        Self.press(app, .character("d"))
        Self.press(app, .character("y"))
        #expect(app.status?.text == "Deleted \"Brazil\"")
        #expect(try server.registeredSession("other").movies().isEmpty, "movies are per user")
    }

    @Test("the map pans and zooms, saves the view as it moves, drops a pin and opens its album")
    func mapAndAlbum() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let session = try server.registeredSession("traveller")
        let app = Self.app(session, home: home.path)
        Self.press(app, .character("3"))
        _ = Self.screen(app)
        Self.press(app, .character("+"), .right)
        app.finish()
        let saved = try session.mapState()
        #expect(saved.zoom == 2 && saved.centerLongitude > 0)
        Self.press(app, .character("p"))
        #expect(app.status?.text.hasPrefix("Pin 1 dropped") == true)
        Self.press(app, .enter)
        let album = AppAlbumTests.downloaded(app)
        #expect(album.contains("photos · n New Collection") || album.contains("No Images"))
        guard album.contains("photos · n New Collection") else { return }

        // Visit the first photo into the current vacation, then browse it offline in Vacations.
        Self.press(app, .character("v"))
        #expect(app.status?.text == "Visited into My Vacation")
        Self.press(app, .character("n"))
        // Downloading, or said as done when the server had it all at once.
        #expect(app.status?.text == "A new collection is downloading" || app.status?.text.hasPrefix("The album of pin 1 ") == true)
        Self.press(app, .character("4"))
        #expect(Self.screen(app).contains("My Vacation · 1 photo, 1 place, "))
        Self.press(app, .enter)
        let itinerary = Self.screen(app)
        #expect(itinerary.contains("[i Itinerary]") && itinerary.contains("· 1 photo"))
        Self.press(app, .enter, .enter)
        guard case .picture(_, let caption, _)? = app.overlay else {
            Issue.record("no photo from the vacation file")
            return
        }
        #expect(caption.contains("from My Vacation"))
        Self.press(app, .escape, .escape, .character("t"))
        #expect(Self.screen(app).contains("[t Tag Search]"))
        // Esc typed fast before a key arrives as Alt+key: still Esc, then the key.
        app.handle(.key(.character("d"), .alt))
        Self.press(app, .character("y"))
        #expect(app.status?.text == "Deleted My Vacation")
    }

    @Test("smaller than 80x24 says so; the help lists the screen's keys")
    func smallWindowAndHelp() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let app = Self.app(try server.registeredSession("small"), home: home.path)
        #expect(Self.screen(app, columns: 79, rows: 24).contains("Make the window larger"))
        Self.press(app, .character("?"))
        #expect(Self.screen(app).contains("o   ") || Self.screen(app).contains("post a PNG or JPEG file instead"))
        Self.press(app, .character("z"))
        #expect(app.overlay == nil)
        Self.press(app, .character("q"))
        #expect(app.quitRequested)
    }
}

@Suite("App screens: login and mouse", .serialized)
struct AppLoginAndMouseTests {
    @Test("a first start with nothing saved opens the form without connecting, the server field first")
    func firstStartAsksForTheServer() throws {
        let home = TemporaryDirectory("app-home")
        let state = ClientState(directory: home.path)
        let attempts = Counter()
        let backend = AppBackend(
            connect: { () throws(ClientError) in
                attempts.increment()
                throw ClientError(.connection, "cannot connect to localhost:7443")
            }, inline: true, wake: {})
        let app = AppModel(backend: backend, environment: [:], state: state, depth: .plain, colour: false, makeScreens: AppRunner.screens)
        app.startSettings = try ConnectionSettings.resolve(serverFlag: nil, caFlag: nil, state: state)
        app.startOnTerminal()
        #expect(attempts.value == 0)
        #expect(AppScreenTests.screen(app).contains("Welcome to Snapshare"))
        AppScreenTests.press(app, .control("u"))
        AppScreenTests.type(app, "class.example:7443")
        #expect(AppScreenTests.screen(app).contains("class.example:7443"), "typing went to the server field")
    }

    @Test("a refused certificate takes the whole screen with its fix; nothing reconnects until r")
    func refusedCertificateStops() throws {
        let home = TemporaryDirectory("app-home")
        let state = ClientState(directory: home.path)
        let attempts = Counter()
        let trusted = String(repeating: "ab", count: 32)
        let presented = String(repeating: "cd", count: 32)
        let backend = AppBackend(
            connect: { () throws(ClientError) in
                attempts.increment()
                throw ClientError.certificate(
                    "the certificate of class.example:7443 has CHANGED since you first trusted it",
                    remedy: .checkChangedCertificate(serverKey: "class.example:7443", trustedHex: trusted, presentedHex: presented))
            }, inline: true, wake: {})
        let app = AppModel(backend: backend, environment: [:], state: state, depth: .plain, colour: false, makeScreens: AppRunner.screens)
        app.start()
        #expect(attempts.value == 1)
        let screen = AppScreenTests.screen(app, columns: 80, rows: 24)
        #expect(screen.contains("has CHANGED"), "\(screen)")
        #expect(
            screen.contains(AppModel.fingerprintLines(presented)[0]) && screen.contains(AppModel.fingerprintLines(presented)[1]),
            "the whole fingerprint: \(screen)")
        #expect(screen.contains("press t to trust it") && screen.contains("snapshare trust"), "\(screen)")
        #expect(!screen.contains("reconnecting"))
        // Keys that would ask the server for something do nothing; the screen stays.
        AppScreenTests.press(app, .character("2"))
        app.tick()
        #expect(attempts.value == 1)
        // r: nobody was signed in, so the form is back; connecting waits for it.
        AppScreenTests.press(app, .character("r"))
        #expect(AppScreenTests.screen(app).contains("Welcome to Snapshare"))
        #expect(attempts.value == 1)
        // Refused again; t pins what was presented, as `snapshare trust` would.
        app.start()
        #expect(attempts.value == 2 && AppScreenTests.screen(app).contains("has CHANGED"))
        AppScreenTests.press(app, .character("t"))
        #expect(try state.trustedFingerprint(for: "class.example:7443") == presented)
        #expect(!AppScreenTests.screen(app).contains("has CHANGED"))
    }

    @Test("with no saved session the form registers a new account with the class code, and a wrong password is said on the status line")
    func registerThroughTheForm() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let state = ClientState(directory: home.path)
        let settings = server.settings()
        let backend = AppBackend(
            connect: { () throws(ClientError) in
                let session = try SnapshareSession(settings: settings, state: state) { _ in }
                _ = try session.resumeSavedSession()
                return session
            }, inline: true, wake: {})
        let app = AppModel(backend: backend, environment: [:], state: state, depth: .plain, colour: false, makeScreens: AppRunner.screens)
        app.startSettings = settings
        app.start()
        var shown = AppScreenTests.screen(app)
        #expect(shown.contains("Welcome to Snapshare") && shown.contains(settings.serverKey))
        AppScreenTests.type(app, "newcomer")
        AppScreenTests.press(app, .tab)
        AppScreenTests.type(app, "correct horse battery")
        AppScreenTests.press(app, .tab)
        AppScreenTests.type(app, server.configuration.classCode ?? "")
        AppScreenTests.press(app, .control("r"))
        #expect(app.status?.text == "Signed in as newcomer")
        shown = AppScreenTests.screen(app)
        #expect(shown.contains("Pick a picture") && shown.contains("newcomer"))
        #expect(try state.session(for: settings.serverKey)?.username == "newcomer", "saved as `snapshare register` saves it")

        // A second app on another home: a wrong password stays on the form with the server's message.
        let other = TemporaryDirectory("app-home")
        let otherState = ClientState(directory: other.path)
        let second = AppModel(
            backend: AppBackend(
                connect: { () throws(ClientError) in
                    let session = try SnapshareSession(settings: settings, state: otherState) { _ in }
                    _ = try session.resumeSavedSession()
                    return session
                }, inline: true, wake: {}), environment: [:], state: otherState, depth: .plain, colour: false,
            makeScreens: AppRunner.screens)
        second.startSettings = settings
        second.start()
        AppScreenTests.type(second, "newcomer")
        AppScreenTests.press(second, .tab)
        AppScreenTests.type(second, "wrong password")
        AppScreenTests.press(second, .enter)
        #expect(second.status?.isError == true)
        #expect(AppScreenTests.screen(second).contains("Welcome to Snapshare"))
    }

    @Test("a click on a field of the login form focuses it, and a click on Register presses it")
    func loginFormClicks() throws {
        let home = TemporaryDirectory("app-home")
        let backend = AppBackend(
            connect: { () throws(ClientError) -> SnapshareSession in throw ClientError(.auth, "no saved login") },
            inline: true, wake: {})
        let app = AppModel(
            backend: backend, environment: [:], state: ClientState(directory: home.path), depth: .plain, colour: false,
            makeScreens: AppRunner.screens)
        app.start()
        var rows = AppScreenTests.screen(app).split(separator: "\n", omittingEmptySubsequences: false)
        guard let password = rows.firstIndex(where: { $0.contains("Password") }),
            let buttons = rows.firstIndex(where: { $0.contains("[ Register ]") })
        else {
            Issue.record("no form: \(rows)")
            return
        }
        app.handle(.mouse(MouseEvent(action: .press(.left), column: 40, row: password)))
        AppScreenTests.type(app, "secret")
        rows = AppScreenTests.screen(app).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows[password].contains("••••••"), "typed into the password: \(rows[password])")
        let register = rows[buttons].distance(from: rows[buttons].startIndex, to: rows[buttons].range(of: "[ Register ]")!.lowerBound)
        app.handle(.mouse(MouseEvent(action: .press(.left), column: register + 3, row: buttons)))
        #expect(app.status?.text == "Type your name" && app.status?.isError == true, "pressed: \(app.status?.text ?? "")")
    }

    @Test("o posts a file: a missing file and one that is not a picture are said on the status line; a picture is chosen and posted")
    func postAFile() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let app = AppScreenTests.app(try server.registeredSession("filer"), home: home.path)
        AppScreenTests.press(app, .character("o"))
        func choose(_ path: String) {
            AppScreenTests.press(app, .control("u"))
            AppScreenTests.type(app, path)
            AppScreenTests.press(app, .enter)
        }
        choose(home.path + "/missing.png")
        #expect(app.status?.text == "Cannot read \(home.path)/missing.png: no such file, or not readable" && app.status?.isError == true)
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: home.path + "/notes.txt"))
        choose(home.path + "/notes.txt")
        #expect(
            app.status?.text.hasPrefix("\(home.path)/notes.txt is not a PNG or JPEG this app can post") == true, "\(app.status?.text ?? "")"
        )
        try Data(try SampleLibrary.all()[1].bytes()).write(to: URL(fileURLWithPath: home.path + "/holiday.jpg"))
        // As a file dropped on the terminal types it: quoted, with ~ for the home folder.
        try Data(try SampleLibrary.all()[1].bytes()).write(to: URL(fileURLWithPath: home.path + "/my holiday.jpg"))
        choose("'" + home.path + "/my holiday.jpg'")
        #expect(AppScreenTests.screen(app).contains("Post my holiday.jpg to which feed?"), "\(app.status?.text ?? "")")
        // Esc goes back to the pictures; `o` again starts an empty path.
        AppScreenTests.press(app, .escape, .escape, .character("o"))
        AppScreenTests.type(app, "half typed")
        AppScreenTests.press(app, .escape, .character("o"))
        #expect(AppScreenTests.screen(app).contains("File:") && !AppScreenTests.screen(app).contains("half typed"), "the old text is gone")
        choose(home.path + "/holiday.jpg")
        #expect(AppScreenTests.screen(app).contains("Post holiday.jpg to which feed?"))
        AppScreenTests.press(app, .enter)
        guard let posted = app.status?.text, posted.hasPrefix("Posted snap "), let to = posted.range(of: " to "),
            let paren = posted.range(of: " (\(home.path)/holiday.jpg, ")
        else {
            Issue.record("not posted: \(app.status?.text ?? "")")
            return
        }
        let feed = String(posted[to.upperBound..<paren.lowerBound])
        #expect(try server.registeredSession("looker").snaps(feed: feed).snaps.map(\.poster) == ["filer"])
    }

    @Test("a class with more feeds than rows: the feed list scrolls to the one chosen, and a click picks from the rows shown")
    func manyFeeds() throws {
        let server = try TestServer()
        let admin = try server.makeAdmin("teacher")
        let names = (1...40).map { String(format: "Lecture %02d", $0) }
        for name in names { try admin.createFeed(name) }
        let home = TemporaryDirectory("app-home")
        let app = AppScreenTests.app(try server.registeredSession("scroller"), home: home.path)
        // The first sample, after the Camera tile.
        AppScreenTests.press(app, .right, .enter)
        var shown = AppScreenTests.screen(app, columns: 100, rows: 24)
        #expect(shown.contains("to which feed?"))
        let allFeeds = try server.registeredSession("reader").feeds().map(\.name)
        AppScreenTests.press(app, .end)
        shown = AppScreenTests.screen(app, columns: 100, rows: 24)
        #expect(shown.contains("◉ \(allFeeds.last!)"), "the last feed is scrolled into view and chosen: \(shown)")
        #expect(!shown.contains(allFeeds.first!), "the first has scrolled away")
        // The list's first row now shows a later feed: clicking it picks that one, not the first feed.
        let rows = shown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let top = rows.firstIndex(where: { $0.contains("○ ") }) else {
            Issue.record("no feed rows: \(shown)")
            return
        }
        // The row is the feed's name, then the chosen picture beside the list.
        let topName = rows[top].components(separatedBy: "○ ")[1].components(separatedBy: "  ")[0]
        app.handle(.mouse(MouseEvent(action: .press(.left), column: 3, row: top)))
        #expect(AppScreenTests.screen(app, columns: 100, rows: 24).contains("◉ \(topName)"))
        app.handle(.mouse(MouseEvent(action: .press(.left), column: 3, row: top)))
        #expect(app.status?.text.contains(" to \(topName) (sample 1 (astronaut), ") == true, "\(app.status?.text ?? "")")
    }

    @Test("clicks pick tabs, pictures and rows; the wheel scrolls")
    func mouse() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("app-home")
        let poster = try server.registeredSession("clicker-friend")
        for _ in 0..<3 { _ = try poster.post(feed: "Memes", image: try SampleLibrary.all()[0].bytes()) }
        let app = AppScreenTests.app(try server.registeredSession("clicker"), home: home.path)
        func click(_ column: Int, _ row: Int) { app.handle(.mouse(MouseEvent(action: .press(.left), column: column, row: row))) }
        _ = AppScreenTests.screen(app)
        // The third tile of the first row (of four, 25 columns each), sample 2 after the Camera
        // tile and sample 1: one click selects it, a second chooses it.
        click(55, 6)
        #expect(AppScreenTests.screen(app).contains("▶ 2 "))
        click(55, 6)
        #expect(AppScreenTests.screen(app).contains("Post 2 "))
        // " 1 Post   2 Feeds ": the Feeds tab starts at column 9.
        click(11, 0)
        var shown = AppScreenTests.screen(app)
        #expect(shown.contains("Memes (3)"))
        app.handle(.mouse(MouseEvent(action: .wheelDown, column: 10, row: 10)))
        // Clicking a snap row selects it; clicking it again opens it.
        let rows = shown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let row = rows.firstIndex(where: { $0.contains("clicker-friend") }) else {
            Issue.record("no snap row: \(shown)")
            return
        }
        click(5, row)
        click(5, row)
        guard case .picture? = app.overlay else {
            Issue.record("the clicked snap did not open: \(app.status?.text ?? "")")
            return
        }
        app.handle(.mouse(MouseEvent(action: .press(.left), column: 1, row: 1)))
        #expect(app.overlay == nil, "a click closes the picture too")
        shown = AppScreenTests.screen(app)
        #expect(shown.contains("○ read"))
    }
}

/// A count shared with a backend's connect closure.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
