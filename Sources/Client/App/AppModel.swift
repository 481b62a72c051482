import Foundation
import Imaging
import TerminalUI
import Wire

/// One screen of the app (a tab, or the login form): events in, cells out. Each frame is laid
/// out, then drawn: `layout(in:)` is the one step that may change the screen for the frame
/// (scrolling, and where each thing a click can hit sits, kept as the screen's state for the
/// events that follow); `draw` only reads, like ratatui's `StatefulWidget`.
protocol AppScreen: AnyObject {
    /// The keys this screen knows, for the `?` overlay: (keys, what they do).
    var keys: [(String, String)] { get }
    /// True while the user types into a field: letters then go to it, not to the tab bar.
    var isTyping: Bool { get }
    /// Shown (tab chosen, or the app resumed): a chance to fetch what it shows.
    func activate()
    /// Applies `event`; false when the screen had no use for it.
    func handle(_ event: InputEvent) -> Bool
    /// Places what the screen shows in `area` for the state it is in, before `draw`.
    func layout(in area: Rect)
    /// Draws the state into `area` of `grid`, where the last layout placed it; changes nothing.
    func draw(into grid: inout CellGrid, area: Rect)
    /// Called about once a second: timers, live data.
    func tick(now: Int64)
    /// The app is closing: send what is pending (a moved map view).
    func finish()
}

extension AppScreen {
    var isTyping: Bool { false }
    func activate() {}
    func layout(in area: Rect) {}
    func tick(now: Int64) {}
    func finish() {}
}

/// The app as a value the loop drives: the tab bar, the current screen, the status line and
/// overlays (help, a picture full screen, a question). Everything the server is asked goes
/// through `backend`; results come back on the app's thread through the loop.
final class AppModel {
    enum Tab: Int, CaseIterable {
        case post, feeds, map, vacations, movies
        var title: String {
            switch self {
            case .post: "Post"
            case .feeds: "Feeds"
            case .map: "Map"
            case .vacations: "Vacations"
            case .movies: "Movies"
            }
        }
    }

    /// Something drawn over the screen; any key (or the keys it names) closes it.
    enum Overlay {
        case help
        /// A picture full screen with one caption line and nothing else.
        case picture(PictureCells, caption: String)
        /// Lines of text in a box (who opened my snap, a place description).
        case text(title: String, lines: [String])
        /// y/n; `yes` runs on y.
        case confirm(String, yes: () -> Void)
    }

    static let minimumSize = (columns: 80, rows: 24)

    let backend: AppBackend
    let environment: [String: String]
    let state: ClientState
    let depth: ColorDepth
    /// Decorations (tab bar, markers) coloured: NO_COLOR unset and a terminal that shows colour.
    let colour: Bool

    private(set) var tab: Tab = .post
    private(set) var status: (text: String, isError: Bool)?
    var overlay: Overlay?
    /// The signed-in user and the server's Welcome, once known.
    private(set) var username: String?
    private(set) var welcome: Welcome?
    /// Server time minus ours, from the Welcome (ages are the server's).
    private(set) var clockOffset: Int64 = 0
    private(set) var quitRequested = false
    /// The server and CA the app was started with (the login form starts from them).
    var startSettings: ConnectionSettings?
    /// How full-screen pictures are drawn (`--pictures`); thumbnails are always half blocks.
    var pictures = PictureProtocol.halfblock
    /// The size of the frame last laid out.
    private(set) var size = (columns: 0, rows: 0)
    /// Shown instead of the tabs while nobody is logged in.
    private(set) var login: LoginScreen?

    private(set) var screens: [Tab: AppScreen] = [:]

    init(backend: AppBackend, environment: [String: String], state: ClientState, depth: ColorDepth, colour: Bool,
         makeScreens: (AppModel) -> [Tab: AppScreen]) {
        self.backend = backend
        self.environment = environment
        self.state = state
        self.depth = depth
        self.colour = colour
        screens = makeScreens(self)
    }

    var now: Int64 { Timestamp.now() + clockOffset }

    var current: AppScreen { login ?? screens[tab]! }

    // MARK: Session

    /// Resumes the saved login in the background; the login form opens when there is none.
    func start() {
        setStatus("Connecting…")
        backend.perform(retry: true, { session throws(ClientError) in (try session.whoAmI(), session.welcome) }, then: { [self] result in
            switch result {
            case .success(let (identity, welcome)): signedIn(identity.username, welcome: welcome)
            case .failure(let error) where error.kind == .auth || error.kind == .notFound:
                showLogin(message: nil)
            case .failure(let error):
                showLogin(message: error.message)
            }
        })
    }

    func signedIn(_ name: String, welcome: Welcome) {
        username = name
        self.welcome = welcome
        clockOffset = welcome.serverTime - Timestamp.now()
        login = nil
        setStatus("Signed in as \(name)")
        current.activate()
    }

    func showLogin(message: String?) {
        let form = LoginScreen(app: self)
        login = form
        if let message { setStatus(message, isError: true) } else { setStatus("Log in or register to start") }
    }

    // MARK: Status

    func setStatus(_ text: String, isError: Bool = false) {
        status = (PrintableText.clean(text), isError)
    }

    /// A failed request said on the status line; an ended login opens the form.
    func report(_ error: ClientError) {
        if error.kind == .auth, error.serverCode == .sessionInvalid || error.serverCode == .authRequired {
            showLogin(message: error.message)
            return
        }
        setStatus(error.message, isError: true)
    }

    /// `perform` on the backend with failures reported on the status line. `retry` has no
    /// default: each call says whether it may be sent again after a lost connection (reads,
    /// and writes that change nothing the second time), so a write is never repeated by accident.
    func request<T>(retry: Bool, _ work: @escaping (SnapshareSession) throws(ClientError) -> T, then: @escaping (T) -> Void) {
        backend.perform(retry: retry, work, then: { [self] result in
            switch result {
            case .success(let value): then(value)
            case .failure(let error): report(error)
            }
        })
    }

    // MARK: Events

    func select(_ tab: Tab) {
        guard login == nil else { return }
        self.tab = tab
        current.activate()
    }

    func quit() { quitRequested = true }

    func handle(_ event: InputEvent) {
        // The app binds nothing to Alt: Esc typed quickly before a key arrives as Alt+key, and
        // means Esc, then the key.
        if case .key(let key, let modifiers) = event, modifiers.contains(.alt) {
            handle(.key(.escape))
            handle(.key(key, modifiers.subtracting(.alt)))
            return
        }
        if let overlay {
            handleOverlay(overlay, event)
            return
        }
        if case .key(.control("c"), _) = event { quit(); return }
        // The tab bar is the model's, whatever the screen does with the mouse.
        if login == nil, case .mouse(let mouse) = event, mouse.row == 0 {
            if case .press(.left) = mouse.action, let hit = tabHit(column: mouse.column) { select(hit) }
            return
        }
        if current.handle(event) { return }
        guard login == nil else { return }
        switch event {
        case .key(.tab, _): select(Tab(rawValue: (tab.rawValue + 1) % Tab.allCases.count)!)
        case .key(.backTab, _): select(Tab(rawValue: (tab.rawValue + Tab.allCases.count - 1) % Tab.allCases.count)!)
        case .key(.character(let c), []) where ("1"..."5").contains(c) && !current.isTyping:
            select(Tab(rawValue: Int(String(c))! - 1)!)
        case .key(.character("q"), []) where !current.isTyping: quit()
        case .key(.character("?"), []) where !current.isTyping: overlay = .help
        default:
            break
        }
    }

    private func handleOverlay(_ overlay: Overlay, _ event: InputEvent) {
        if case .mouse(let mouse) = event, case .press = mouse.action {} else if case .mouse = event { return }
        if case .confirm(_, let yes) = overlay {
            switch event {
            case .key(.character("y"), _), .key(.character("Y"), _):
                self.overlay = nil
                yes()
            case .key(.character("n"), _), .key(.character("N"), _), .key(.escape, _), .key(.backspace, _):
                self.overlay = nil
                setStatus("Nothing changed")
            default:
                break
            }
            return
        }
        self.overlay = nil
    }

    /// The tab whose title is at `column` of the tab bar.
    private func tabHit(column: Int) -> Tab? {
        var at = 0
        for tab in Tab.allCases {
            let width = Self.tabLabel(tab).count
            if column >= at && column < at + width { return tab }
            at += width + 1
        }
        return nil
    }

    private static func tabLabel(_ tab: Tab) -> String { " \(tab.rawValue + 1) \(tab.title) " }

    func tick() {
        current.tick(now: now)
    }

    /// Closing: every screen sends what it still holds, and the backend gets a moment to send it.
    func finish() {
        guard login == nil else { return }
        for screen in screens.values { screen.finish() }
        backend.drain(timeout: 3)
    }

    // MARK: Drawing

    /// One frame of `columns` x `rows`: laid out, then drawn.
    func render(columns: Int, rows: Int) -> CellGrid {
        layout(columns: columns, rows: rows)
        return draw()
    }

    private var fitsMinimum: Bool { size.columns >= Self.minimumSize.columns && size.rows >= Self.minimumSize.rows }

    /// Where the screen goes: between the tab bar (and its banner) and the status line.
    private var screenArea: Rect { Rect(x: 0, y: 2, width: size.columns, height: size.rows - 4) }

    /// Where a full-screen picture goes: everything above its caption.
    private var pictureArea: Rect { Rect(x: 0, y: 0, width: size.columns, height: size.rows - 1) }

    /// Lays the frame out: the current screen, unless a full-screen picture or the window's
    /// size hides it.
    private func layout(columns: Int, rows: Int) {
        size = (columns, rows)
        guard fitsMinimum else { return }
        if case .picture = overlay { return }
        current.layout(in: screenArea)
    }

    /// The full-screen picture when it goes through a graphics protocol, and where: the loop
    /// sends it after the cells (`AppRunner`).
    var protocolPicture: (picture: PictureCells, area: Rect)? {
        guard fitsMinimum, pictures != .halfblock, case .picture(let picture, _) = overlay else { return nil }
        return (picture, pictureArea)
    }

    private func draw() -> CellGrid {
        let (columns, rows) = size
        var grid = CellGrid(columns: columns, rows: rows)
        guard fitsMinimum else {
            let lines = ["Make the window larger", "Snapshare needs at least \(Self.minimumSize.columns)x\(Self.minimumSize.rows);",
                         "this one is \(columns)x\(rows).", "q quits"]
            for (index, line) in lines.enumerated() {
                grid.write(line, column: max(0, (columns - line.count) / 2), row: max(0, rows / 2 - 2) + index)
            }
            return grid
        }
        if case .picture(let picture, let caption) = overlay {
            if pictures == .halfblock { picture.draw(into: &grid, area: pictureArea, depth: depth) }
            grid.write(caption, column: 0, row: rows - 1, style: Style(bold: true))
            return grid
        }
        drawTabBar(into: &grid)
        current.draw(into: &grid, area: screenArea)
        drawStatus(into: &grid)
        switch overlay {
        case .help: drawBox(into: &grid, title: "Keys", lines: helpLines())
        case .text(let title, let lines): drawBox(into: &grid, title: title, lines: lines + ["", "any key closes"])
        case .confirm(let question, _): drawBox(into: &grid, title: "Are you sure?", lines: [question, "", "y yes · n no"])
        default: break
        }
        return grid
    }

    private var accent: Style { colour ? Style(foreground: .indexed(0), background: .indexed(45), bold: true) : Style(bold: true, reverse: true) }

    private func drawTabBar(into grid: inout CellGrid) {
        if login != nil {
            grid.write(" Snapshare ", column: 0, row: 0, style: accent)
        } else {
            var at = 0
            for tab in Tab.allCases {
                let label = Self.tabLabel(tab)
                at += grid.write(label, column: at, row: 0, style: tab == self.tab ? accent : Style(underline: true)) + 1
            }
        }
        let right = [username.map { "\($0)" }, "? keys", "q quit"].compactMap { $0 }.joined(separator: " · ")
        grid.write(right, column: max(0, grid.columns - right.count - 1), row: 0)
        if case .reconnecting(let reason) = backend.link {
            let banner = " reconnecting… (\(reason)) "
            grid.write(banner, column: 0, row: 1, style: colour ? Style(foreground: .indexed(0), background: .indexed(214)) : Style(reverse: true),
                       width: grid.columns)
        }
    }

    private func drawStatus(into grid: inout CellGrid) {
        let row = grid.rows - 1
        guard let status else { return }
        let style = status.isError ? (colour ? Style(foreground: .indexed(196), bold: true) : Style(bold: true)) : Style.plain
        grid.write(status.text, column: 1, row: row, style: style, width: grid.columns - 2)
    }

    private func helpLines() -> [String] {
        var lines = ["Tab / Shift-Tab / 1-5   switch tabs (or click one)",
                     "arrows or h j k l       move",
                     "Enter                   open",
                     "Esc / Backspace         back",
                     "q                       quit (Ctrl-C too)", ""]
        for (keys, meaning) in current.keys {
            lines.append(keys.padding(toLength: max(keys.count, 24), withPad: " ", startingAt: 0) + meaning)
        }
        return lines
    }

    private func drawBox(into grid: inout CellGrid, title: String, lines: [String]) {
        let width = min(grid.columns - 4, max(title.count + 4, (lines.map(\.count).max() ?? 0) + 4))
        let height = min(grid.rows - 2, lines.count + 2)
        let left = (grid.columns - width) / 2, top = (grid.rows - height) / 2
        grid.fill(columns: left..<left + width, rows: top..<top + height)
        grid.write("┌" + String(repeating: "─", count: width - 2) + "┐", column: left, row: top)
        grid.write(" \(title) ", column: left + 2, row: top, style: Style(bold: true))
        for (index, line) in lines.prefix(height - 2).enumerated() {
            grid.write("│", column: left, row: top + 1 + index)
            grid.write(line, column: left + 2, row: top + 1 + index, width: width - 4)
            grid.write("│", column: left + width - 1, row: top + 1 + index)
        }
        grid.write("└" + String(repeating: "─", count: width - 2) + "┘", column: left, row: top + height - 1)
    }
}
