import Foundation
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// The app's loop on a real terminal: take the terminal, draw, wait for input, a signal or a
/// server result, apply it, draw only what changed, and give the terminal back however it ends
/// (q, Ctrl-C, SIGTERM, SIGHUP, a thrown error); Ctrl-Z suspends and `fg` redraws.
///
/// It never spins: between events it sleeps in poll(2), waking once a second for the live feed
/// and the ages on screen.
enum AppRunner {
    /// How the backend makes a session: connect, resume the login saved for the server, and act
    /// in the class `asked` names (`--class`), else the one saved (`snapshare use`).
    static func connect(settings: ConnectionSettings, state: ClientState, asked: String? = nil) -> AppBackend.Connect {
        { notice throws(ClientError) -> SnapshareSession in
            let session = try SnapshareSession(settings: settings, state: state, notice: notice)
            _ = try session.resumeSavedSession()
            _ = try session.chooseClass(asked: asked)
            return session
        }
    }

    /// Every tab's screen, for the model.
    static func screens(_ app: AppModel) -> TabScreens { TabScreens(app: app) }

    /// `requested`: the `--pictures` protocol, nil to take the best the terminal shows; `camera`,
    /// what the Post tab's Camera tile reads (`--camera-device`). The
    /// terminal is asked what it is (`TerminalSession.probe`) before anything can open a snap, so
    /// a view is never spent on a picture the terminal cannot show.
    static func run(
        settings: ConnectionSettings, state: ClientState, environment: [String: String],
        pictures requested: PictureProtocol?, camera: CameraDevice, asked: String? = nil
    ) throws(ClientError) {
        let session: TerminalSession
        do { session = try TerminalSession() } catch { throw ClientError(.local, "cannot use this terminal: \(error)") }
        defer { session.close() }
        do {
            try session.start()
            let probe = try session.probe(environment: environment)
            let choice = PictureProtocol.choose(requested, environment: environment, facts: probe.facts)
            let backend = AppBackend(noticing: connect(settings: settings, state: state, asked: asked)) { [session] in session.wake() }
            defer { backend.stop() }
            let depth = ColorDepth.detect(environment, version: probe.facts.version)
            let app = AppModel(
                backend: backend, environment: environment, state: state, depth: depth,
                colour: ColorDepth.decorationsColored(environment, onTerminal: true), makeScreens: screens)
            app.startSettings = settings
            app.cameraDevice = camera
            app.pictures = choice.pictures
            app.pictureNotice = choice.notice
            app.terminalFacts = probe.facts
            app.lightBackground = probe.facts.lightBackground ?? false
            try loop(app, session: session, depth: depth, pending: probe)
            app.finish()
        } catch {
            session.stop()
            throw ClientError(.local, "the terminal failed: \(error)")
        }
    }

    /// `pending`: what arrived while the terminal was asked, handled first.
    private static func loop(_ app: AppModel, session: TerminalSession, depth: ColorDepth, pending: TerminalSession.Probe) throws(Terminal
        .Failure)
    {
        let timings = app.environment["SNAPSHARE_APP_TIMINGS"].map { RedrawTimings(path: $0) }
        defer { timings?.write() }
        var inputArrived: UInt64?
        var writer = ScreenWriter(depth: depth)
        var parser = InputParser()
        var size = Terminal.sizeOrDefault(of: session.terminal.output)
        var lastTick = Date()
        app.startOnTerminal()
        var shownPicture: ObjectIdentifier?
        let thumbnails = KittyThumbnails()
        var wakeup = TerminalSession.Wakeup(events: pending.events, signals: pending.signals)
        while !app.quitRequested {
            let sizing = app.terminalFacts.pictureSizing
            if try !handle(wakeup, app: app, session: session) { return }
            if app.terminalFacts.pictureSizing != sizing && app.pictures != .halfblock {
                // A new cell size (a font change) or sixel limit (a resized xterm): the pictures
                // again, sized for it.
                if app.pictures == .kitty { try session.terminal.write(PictureEscapes.kittyDeleteAll) }
                writer.invalidate()
                shownPicture = nil
            }
            if app.suspendRequested {
                app.suspendRequested = false
                app.current.deactivate()
                try session.suspend()
                wakeup.signals = [SIGCONT]
            }
            if wakeup.signals.contains(where: { $0 == SIGWINCH || $0 == SIGTSTP || $0 == SIGCONT }) {
                size = Terminal.sizeOrDefault(of: session.terminal.output)
                // The font may have changed with the size, and xterm's sixel limit follows its
                // window: both asked again; their answers redraw the pictures (above).
                try session.askAgain(&app.terminalFacts, asking: app.pictures != .halfblock)
                writer.invalidate()
                shownPicture = nil
            }
            if Date().timeIntervalSince(lastTick) >= 1 {
                lastTick = Date()
                app.tick()
            }
            guard !app.quitRequested else { return }
            let grid = app.render(columns: size.columns, rows: size.rows)
            let picture = app.protocolPicture
            // Everything for one frame goes out as one synchronized update: a picture taken away,
            // the changed cells, a picture drawn.
            var frame: [UInt8] = []
            if shownPicture != nil && picture.map({ ObjectIdentifier($0.picture) }) != shownPicture {
                // The protocol's pixels are not cells: take them away and repaint every cell.
                if app.pictures == .kitty { frame += PictureEscapes.kittyDeleteAll }
                writer.invalidate()
                shownPicture = nil
            }
            let terminal = PictureTerminal(app.terminalFacts, columns: size.columns, rows: size.rows)
            let repainted = writer.repaintsAll(grid)
            frame += writer.frame(grid)
            // Thumbnails (kitty only) placed again where the frame moved them; none under a
            // full-screen picture.
            if app.pictures == .kitty { frame += thumbnails.frame(app.protocolThumbnails, cell: terminal.cell, repainted: repainted) }
            if let picture, shownPicture == nil,
                let bytes = picture.picture.escapes(app.pictures, area: picture.area, on: terminal)
            {
                frame += bytes
                shownPicture = ObjectIdentifier(picture.picture)
            }
            if !frame.isEmpty { try session.terminal.write(ScreenWriter.synchronized(frame)) }
            if let started = inputArrived { timings?.record(from: started) }
            wakeup = try session.wait(timeoutMilliseconds: 1000, decodingWith: &parser)
            if wakeup.inputClosed { return }
            inputArrived = wakeup.input.isEmpty ? nil : DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Hands `wakeup`'s events to the app (a late answer to the terminal's questions goes to its
    /// facts instead), runs finished requests, and does each signal's part; false means leave
    /// (SIGTERM, SIGHUP, SIGINT).
    private static func handle(_ wakeup: TerminalSession.Wakeup, app: AppModel, session: TerminalSession) throws(Terminal.Failure) -> Bool {
        for event in app.terminalFacts.absorb(answersIn: wakeup.events) { app.handle(event) }
        for completion in app.backend.takeCompletions() { completion() }
        for signal in wakeup.signals {
            // Stopped, the app cannot read the camera: it is let go first (its light goes off).
            if signal == SIGTSTP { app.current.deactivate() }
            if try session.respond(to: signal) == .end { return false }
        }
        return true
    }
}
