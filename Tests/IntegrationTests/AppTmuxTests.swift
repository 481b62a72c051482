import Client
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `snapshare` binary, full screen in tmux, against a real server: keys in with
/// send-keys, the screen read with capture-pane.
@Suite("The app in tmux", .serialized, .enabled(if: TmuxPane.isAvailable, "tmux is not installed"))
struct AppTmuxTests {
    /// `environment` adds to (or replaces) what the app is given.
    static func app(
        _ server: TestServer, home: TemporaryDirectory, arguments: [String] = [],
        environment: [String: String] = [:], columns: Int = 100, rows: Int = 30
    ) throws -> TmuxPane {
        let command = ([Subprocess.executable("snapshare"), "--server", "127.0.0.1:\(server.port)", "--ca", server.caPath] + arguments)
            .map { "'\($0)'" }.joined(separator: " ")
        return try TmuxPane(
            command, columns: columns, rows: rows,
            environment: ["SNAPSHARE_HOME": home.path, "TERM": "xterm-256color", "LANG": "C.UTF-8"]
                .merging(environment) { $1 })
    }

    /// A registered user whose session is saved in a home of its own (as `snapshare register` leaves it).
    static func registeredHome(_ server: TestServer, _ name: String) throws -> (TemporaryDirectory, SnapshareSession) {
        let home = TemporaryDirectory(name)
        let (session, _) = try server.session(home: home)
        _ = try session.register(username: name, password: "correct horse battery", classCode: server.configuration.classCode ?? "")
        return (home, session)
    }

    @Test("log in, pick sample 3 and post it to Memes; another app sees it arrive, opens it once, and is refused the second time")
    func postAndOpenOnce() throws {
        let server = try TestServer()
        _ = try server.registeredSession("ann")
        let (benHome, _) = try Self.registeredHome(server, "ben")

        // Ben is signed in already (his saved session) and watches Feeds before anything is posted.
        let watcher = try Self.app(server, home: benHome)
        try watcher.wait { $0.contains("Signed in as ben") }
        try watcher.send("2")
        try watcher.wait { $0.contains("Memes (0)") }

        // Ann has no saved session here: the login form comes first.
        let annHome = TemporaryDirectory("ann")
        let poster = try Self.app(server, home: annHome)
        var screen = try poster.wait { $0.contains("Welcome to Snapshare") }
        #expect(screen.contains("Server") && screen.contains("127.0.0.1:\(server.port)"))
        try poster.fill("ann", "correct horse battery")
        try poster.send("Enter")
        screen = try poster.wait { $0.contains("Pick a picture") }
        #expect(screen.contains("Signed in as ann"), "\(screen)")
        // Sample 3, after the Camera tile and samples 1 and 2.
        try poster.send("Right", "Right", "Right", "Enter")
        screen = try poster.wait { $0.contains("to which feed?") }
        for _ in 0..<10 where !screen.contains("◉ Memes") {
            try poster.send("Down")
            screen = try poster.wait(timeout: 2) { $0.contains("◉ Memes") }
        }
        try poster.send("Enter")
        screen = try poster.wait { $0.contains("to Memes (sample 3 (cat)") }
        #expect(
            screen.contains("Posted snap 1 to Memes (sample 3 (cat), 256x170, "), "the snap's id and its picture, as `post` says: \(screen)"
        )

        // No key pressed in Ben's app: the snap arrives by itself.
        screen = try watcher.wait { $0.contains("● unread") }
        #expect(screen.contains("Memes (1)") && screen.contains("ann") && screen.contains("● unread"), "\(screen)")
        try watcher.send("Enter")
        screen = try watcher.wait { $0.contains("any other key closes it for good") }
        #expect(screen.contains("ann · Memes ·") && !screen.contains("Feeds"), "full screen, caption only: \(screen)")
        try watcher.send("x")
        screen = try watcher.wait { $0.contains("○ read") }
        #expect(screen.contains("○ read") && !screen.contains("● unread"), "\(screen)")
        try watcher.send("Enter")
        screen = try watcher.wait { $0.contains("already opened") }
        #expect(screen.contains("already opened"), "\(screen)")
        try watcher.send("q")
        try poster.send("q")
        #expect(try watcher.wait { _ in (try? watcher.hasExited()) == true }.isEmpty == false)
    }

    @Test("pan and zoom the map, quit, start again and find it where it was; drop a pin and watch its album fill")
    func mapPersistsAndAlbumFills() throws {
        let server = try TestServer()
        let (home, session) = try Self.registeredHome(server, "traveller")

        var app = try Self.app(server, home: home)
        try app.wait { $0.contains("Signed in as traveller") }
        try app.send("3")
        try app.wait { $0.contains("zoom 1 ") }
        try app.send("+", "+", "Right")
        var screen = try app.wait { $0.contains("zoom 4") }
        try app.send("q")
        _ = try app.wait { _ in (try? app.hasExited()) == true }
        #expect(try app.hasExited())
        let saved = try session.mapState()
        #expect(saved.zoom == 4 && saved.centerLongitude > 0, "saved on the way out")

        app = try Self.app(server, home: home)
        try app.wait { $0.contains("Signed in as traveller") }
        try app.send("3")
        screen = try app.wait { $0.contains("zoom 4") }
        #expect(screen.contains("zoom 4"), "the map is where it was left: \(screen)")

        try app.send("p")
        screen = try app.wait { $0.contains("Pin 1 dropped") }
        try app.send("Enter")
        screen = try app.wait(timeout: 60) { $0.contains("Album of pin 1 · ") && !$0.contains("downloading") }
        #expect(screen.contains("photos · n New Collection") || screen.contains("No Images"), "\(screen)")
        try app.send("q")
    }
}

/// The terminal is given back however the app ends, and the app rides out a server restart.
@Suite("The app's terminal and connection", .serialized, .enabled(if: TmuxPane.isAvailable, "tmux is not installed"))
struct AppLifecycleTests {
    /// The app inside a shell that records the terminal's settings once the app has ended.
    static func wrapped(_ server: TestServer, home: TemporaryDirectory) throws -> (TmuxPane, String) {
        let record = home.path + "/stty-after.txt"
        let app = [Subprocess.executable("snapshare"), "--server", "127.0.0.1:\(server.port)", "--ca", server.caPath]
            .map { "'\($0)'" }.joined(separator: " ")
        let pane = try TmuxPane(
            "sh -c \"\(app); echo app-exit-\\$?; stty -a > '\(record)'; sleep 30\"", columns: 100, rows: 30,
            environment: ["SNAPSHARE_HOME": home.path, "TERM": "xterm-256color", "LANG": "C.UTF-8"])
        return (pane, record)
    }

    /// The app started for this home: the `snapshare` process whose environment names it. Other tests run
    /// apps at the same time, so the newest `snapshare` on the machine need not be ours.
    static func appPID(home: TemporaryDirectory) throws -> Int32 {
        let ours = "SNAPSHARE_HOME=" + home.path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for pid in entries.compactMap(Int32.init) {
            let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
            guard command.trimmingCharacters(in: .whitespacesAndNewlines) == "snapshare",
                let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ")
            else { continue }
            if environment.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == ours }) { return pid }
        }
        throw ProcessError("the app's process was not found")
    }

    static func cookedModeRestored(_ record: String) throws -> Bool {
        let settings = try String(contentsOfFile: record, encoding: .utf8).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        return settings.contains("icanon") && settings.contains("echo") && settings.contains("isig")
    }

    @Test("q, Ctrl-C, SIGTERM and SIGHUP all leave the alternate screen and restore cooked mode", arguments: ["q", "C-c", "TERM", "HUP"])
    func theTerminalIsRestored(ending: String) throws {
        let server = try TestServer()
        let (home, _) = try AppTmuxTests.registeredHome(server, "leaver")
        let (pane, record) = try Self.wrapped(server, home: home)
        try pane.wait { $0.contains("Signed in as leaver") }
        switch ending {
        case "TERM": kill(try Self.appPID(home: home), SIGTERM)
        case "HUP": kill(try Self.appPID(home: home), SIGHUP)
        default: try pane.send(ending)
        }
        let screen = try pane.wait { $0.contains("app-exit-") }
        #expect(screen.contains("app-exit-0"), "\(screen)")
        #expect(!screen.contains("Pick a picture"), "the alternate screen is gone: \(screen)")
        _ = try pane.wait(timeout: 5) { _ in FileManager.default.fileExists(atPath: record) }
        #expect(try Self.cookedModeRestored(record))
    }

    @Test("Ctrl-Z gives the terminal back; continuing redraws the app")
    func suspendAndResume() throws {
        let server = try TestServer()
        let (home, _) = try AppTmuxTests.registeredHome(server, "sleeper")
        let (pane, _) = try Self.wrapped(server, home: home)
        try pane.wait { $0.contains("Signed in as sleeper") }
        let pid = try Self.appPID(home: home)
        try pane.send("C-z")
        let stopped = try pane.wait(timeout: 10) { !$0.contains("Pick a picture") }
        #expect(!stopped.contains("Pick a picture"), "the app's screen is put away while it is stopped")
        kill(pid, SIGCONT)
        let back = try pane.wait { $0.contains("Pick a picture") }
        #expect(back.contains("Pick a picture") && back.contains("1 Post"), "\(back)")
        try pane.send("q")
        #expect(try pane.wait { $0.contains("app-exit-") }.contains("app-exit-0"))
    }

    @Test("a server restart shows reconnecting…, then the app carries on with the same login and sees new snaps")
    func reconnectsAfterARestart() throws {
        let server = try TestServer()
        let (home, _) = try AppTmuxTests.registeredHome(server, "steady")
        let pane = try AppTmuxTests.app(server, home: home)
        try pane.wait { $0.contains("Signed in as steady") }
        try pane.send("2")
        try pane.wait { $0.contains("Memes (0)") }
        server.stop()
        var screen = try pane.wait { $0.contains("reconnecting…") }
        #expect(screen.contains("reconnecting…"), "\(screen)")
        try server.startAgain()
        let poster = try server.registeredSession("poster")
        _ = try poster.post(feed: "Memes", image: TestImages.sample(2))
        screen = try pane.wait(timeout: 60) { $0.contains("● unread") }
        #expect(screen.contains("poster") && screen.contains("● unread") && !screen.contains("reconnecting…"), "\(screen)")
        #expect(!screen.contains("Welcome to Snapshare"), "no new login")
        try pane.send("q")
    }

    @Test(
        """
        on Movies, which asks the server nothing by itself, \
        a stopped server shows reconnecting… within seconds, wrapped at 80 columns
        """
    )
    func bannerOnEveryTab() throws {
        let server = try TestServer()
        let (home, _) = try AppTmuxTests.registeredHome(server, "cinephile")
        let pane = try AppTmuxTests.app(server, home: home, columns: 80, rows: 24)
        try pane.wait { $0.contains("Signed in as cinephile") }
        try pane.send("5")
        try pane.wait { $0.contains("No movies yet") }
        server.stop()
        var screen = try pane.wait(timeout: 8) { $0.contains("reconnecting…") }
        #expect(screen.contains("reconnecting…"), "no banner on Movies within 8 s: \(screen)")
        // Its reason wrapped whole under the tab bar, the screen below it.
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count > 3 && rows[1].contains("reconnecting… (cannot connect") && rows.allSatisfy { $0.count <= 80 }, "\(screen)")
        try server.startAgain()
        screen = try pane.wait(timeout: 60) { !$0.contains("reconnecting…") }
        try pane.send("a")
        try pane.fill("Alien", "Horror", "1000")
        try pane.send("Enter")
        screen = try pane.wait { $0.contains("Added \"Alien\"") }
        #expect(screen.contains("Record 1 of 1"), "\(screen)")
        try pane.send("q")
    }

    @Test("a resize redraws at the new size; below 80x24 it asks for a larger window, and comes back")
    func resizing() throws {
        let server = try TestServer()
        let (home, _) = try AppTmuxTests.registeredHome(server, "stretcher")
        let pane = try AppTmuxTests.app(server, home: home)
        try pane.wait { $0.contains("Signed in as stretcher") }
        try pane.resize(columns: 140, rows: 40)
        var screen = try pane.wait { $0.split(separator: "\n").first.map { $0.count > 120 } ?? false }
        #expect(
            screen.split(separator: "\n").first?.hasSuffix("q quit") == true && screen.split(separator: "\n").first!.count > 120,
            "the header reaches the new right edge: \(screen)")
        try pane.resize(columns: 70, rows: 20)
        screen = try pane.wait { $0.contains("Make the window larger") }
        #expect(screen.contains("this one is 70x20"), "\(screen)")
        try pane.resize(columns: 100, rows: 30)
        screen = try pane.wait { $0.contains("Pick a picture") }
        #expect(!screen.contains("Make the window larger"))
        try pane.send("q")
    }

    @Test("--pictures sixel inside tmux: half blocks, and the status line says why once signed in")
    func forcedProtocolNotice() throws {
        let server = try TestServer()
        let (home, _) = try AppTmuxTests.registeredHome(server, "forcer")
        let pane = try AppTmuxTests.app(server, home: home, arguments: ["app", "--pictures", "sixel"])
        let screen = try pane.wait { $0.contains("Signed in as forcer") }
        #expect(screen.contains("--pictures sixel: tmux and screen do not pass sixels on"), "\(screen)")
        try pane.send("q")
    }
}
