#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TerminalUI

/// The app's loop on a real terminal: take the terminal, draw, wait for input, a signal or a
/// server result, apply it, draw only what changed, and give the terminal back however it ends
/// (q, Ctrl-C, SIGTERM, SIGHUP, a thrown error); Ctrl-Z suspends and `fg` redraws.
///
/// It never spins: between events it sleeps in poll(2), waking once a second for the live feed
/// and the ages on screen.
enum AppRunner {
    /// How the backend makes a session: connect, then resume the login saved for the server.
    static func connect(settings: ConnectionSettings, state: ClientState) -> AppBackend.Connect {
        { () throws(ClientError) -> SnapshareSession in
            let session = try SnapshareSession(settings: settings, state: state) { _ in }
            _ = try session.resumeSavedSession()
            return session
        }
    }

    /// Every tab, for the model.
    static func screens(_ app: AppModel) -> [AppModel.Tab: any AppScreen] {
        [.post: PostScreen(app: app), .feeds: FeedsScreen(app: app), .map: MapScreen(app: app),
         .vacations: VacationsScreen(app: app), .movies: MoviesScreen(app: app), .reports: ReportsScreen(app: app)]
    }

    /// `askForSixel`: ask the terminal (DA1) and use sixel for pictures if it says it has it.
    static func run(settings: ConnectionSettings, state: ClientState, environment: [String: String],
                    pictures: PictureProtocol, askForSixel: Bool = false) throws(ClientError) {
        let session: TerminalSession
        do { session = try TerminalSession() } catch { throw ClientError(.local, "cannot use this terminal: \(error)") }
        defer { session.close() }
        let backend = AppBackend(connect: connect(settings: settings, state: state)) { [session] in session.wake() }
        defer { backend.stop() }
        let depth = ColorDepth.detect(environment)
        let app = AppModel(backend: backend, environment: environment, state: state, depth: depth,
                           colour: ColorDepth.decorationsColored(environment, onTerminal: true), makeScreens: screens)
        app.startSettings = settings
        app.pictures = pictures
        do {
            try session.start()
            if askForSixel { try session.terminal.write(PictureProtocol.deviceAttributesQuery) }
            try loop(app, session: session, depth: depth)
            app.finish()
        } catch {
            session.stop()
            throw ClientError(.local, "the terminal failed: \(error)")
        }
    }

    private static func loop(_ app: AppModel, session: TerminalSession, depth: ColorDepth) throws(Terminal.Failure) {
        let timings = app.environment["SNAPSHARE_APP_TIMINGS"].map { RedrawTimings(path: $0) }
        defer { timings?.write() }
        var inputArrived: UInt64?
        var writer = ScreenWriter(depth: depth)
        var parser = InputParser()
        var size = Terminal.sizeOrDefault(of: session.terminal.output)
        var lastTick = Date()
        app.startOnTerminal()
        var shownPicture: ObjectIdentifier?
        while !app.quitRequested {
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
            frame += writer.frame(grid)
            if let picture, shownPicture == nil, let bytes = picture.picture.escapes(app.pictures, area: picture.area) {
                frame += bytes
                shownPicture = ObjectIdentifier(picture.picture)
            }
            if !frame.isEmpty { try session.terminal.write(ScreenWriter.synchronized(frame)) }
            if let started = inputArrived { timings?.record(from: started) }
            let wakeup = try session.wait(timeoutMilliseconds: 1000, decodingWith: &parser)
            if wakeup.inputClosed { return }
            inputArrived = wakeup.input.isEmpty ? nil : DispatchTime.now().uptimeNanoseconds
            for event in wakeup.events {
                // The answer to the DA1 question asked at the start, not a key.
                if case .unknown(let bytes) = event, let sixel = PictureProtocol.sixelInDeviceAttributes(bytes) {
                    if sixel && app.pictures == .halfblock { app.pictures = .sixel }
                    continue
                }
                app.handle(event)
            }
            for completion in app.backend.takeCompletions() { completion() }
            var redraw = false
            for signal in wakeup.signals {
                // SIGTERM, SIGHUP, SIGINT: leave cleanly.
                guard try session.respond(to: signal) == .redraw else { return }
                redraw = true
            }
            if app.suspendRequested {
                app.suspendRequested = false
                try session.suspend()
                redraw = true
            }
            if redraw {
                size = Terminal.sizeOrDefault(of: session.terminal.output)
                writer.invalidate()
                shownPicture = nil
            }
            if Date().timeIntervalSince(lastTick) >= 1 {
                lastTick = Date()
                app.tick()
            }
        }
    }
}
