import Foundation
import Imaging
import Posix
import TerminalUI
import TLS
import Wire

/// The app as a value the loop drives: the tab bar, the current screen, the status line and
/// overlays (help, a picture full screen, a text, a dialog). Everything the server is asked goes
/// through `backend`; results come back on the app's thread through the loop.
final class AppModel {
    enum Tab: Int, CaseIterable {
        case post, feeds, map, vacations, movies
        /// Admins only: snaps awaiting approval and reported snaps.
        case reports

        /// The digit that chooses it, as the tab bar shows.
        var digit: Character { Character(String(rawValue + 1)) }

        var title: String {
            switch self {
            case .post: "Post"
            case .feeds: "Feeds"
            case .map: "Map"
            case .vacations: "Vacations"
            case .movies: "Movies"
            case .reports: "Reports"
            }
        }
    }

    /// Something drawn over the screen, which takes every key while it shows: a dialog its own
    /// keys, the others any key (or click), which closes them.
    enum Overlay {
        case help
        /// A picture full screen with one caption line and nothing else; `reportable`, the snap
        /// it shows, which `r` reports.
        case picture(PictureCells, caption: String, reportable: UInt64? = nil)
        /// Lines of text in a box (who opened my snap, a fingerprint trusted, a long message).
        case text(title: String, lines: [String])
        /// A question: a line to type, or yes and no.
        case dialog(Dialog)
    }

    static let minimumSize = (columns: 80, rows: 24)

    let backend: AppBackend
    let environment: [String: String]
    let state: ClientState
    let depth: ColorDepth
    /// Decorations (tab bar, markers) coloured: NO_COLOR unset and a terminal that shows colour.
    let colour: Bool

    private(set) var tab: Tab = .post
    /// The status line, while its screen shows and its moment lasts.
    private(set) var statusLine: StatusLine?
    var overlay: Overlay?
    /// Boxes waiting for the overlay shown now to close (a fingerprint pinned while a dialog was open).
    private var waitingOverlays: [Overlay] = []
    /// The app's clock in milliseconds, for how long a status lasts (tests move it by hand).
    var clock: () -> Int64 = MonotonicClock.milliseconds
    /// The signed-in user and the server's Welcome, once known.
    private(set) var username: String?
    /// Whether the signed-in user is an admin (the Reports tab is theirs).
    private(set) var isAdmin = false
    /// The password typed at the login form, kept only until a one-time password is replaced.
    var lastLoginPassword: String?
    private(set) var welcome: Welcome?
    /// Server time minus ours, from the Welcome (ages are the server's).
    private(set) var clockOffset: Int64 = 0
    private(set) var quitRequested = false
    /// Ctrl-Z was pressed: the loop hands the terminal back, and clears this once it is back.
    var suspendRequested = false
    /// The server and CA the app was started with (the login form starts from them).
    var startSettings: ConnectionSettings?
    /// How full-screen pictures are drawn (`--pictures`, or what the terminal showed it has);
    /// thumbnails too with kitty (`drawThumbnail`), half blocks otherwise.
    var pictures = PictureProtocol.halfblock
    /// Why `pictures` is not the protocol asked for, said once signed in.
    var pictureNotice: String?
    /// The camera the Post tab's Camera tile reads (`--camera-device`).
    var cameraDevice = CameraDevice.platformDefault
    /// What the terminal said of itself (cell size, sixel registers), for protocol pictures.
    var terminalFacts = TerminalFacts()
    /// The terminal's background is light (OSC 11): decorations take colours that read on it.
    var lightBackground = false
    /// The decoration colours for this terminal's background (none without colour).
    var decorations: Decorations { Decorations.chosen(colour: colour, lightBackground: lightBackground) }
    /// The size of the frame last laid out.
    private(set) var size = (columns: 0, rows: 0)
    /// Shown instead of the tabs while nobody is logged in.
    private(set) var login: LoginScreen?

    private(set) var screens: [Tab: any AppScreen] = [:]

    init(backend: AppBackend, environment: [String: String], state: ClientState, depth: ColorDepth, colour: Bool,
         makeScreens: (AppModel) -> [Tab: any AppScreen]) {
        self.backend = backend
        self.environment = environment
        self.state = state
        self.depth = depth
        self.colour = colour
        screens = makeScreens(self)
        // A server pinned on first use by any connection the backend makes: its fingerprint shown.
        backend.onNotice = { [weak self] notice in self?.announce(notice) }
    }

    var now: Int64 { Timestamp.now() + clockOffset }

    var current: any AppScreen { login ?? screens[tab]! }

    // MARK: Session

    /// Resumes the saved login in the background; the login form opens when there is none.
    func start() {
        setStatus("Connecting…", kind: .progress)
        backend.perform(retry: true, { session throws(ClientError) in (try session.whoAmI(), session.welcome) }, then: { [self] result in
            switch result {
            case .success(let (identity, welcome)): signedIn(identity.username, isAdmin: identity.isAdmin, welcome: welcome)
            case .failure(let error) where error.kind == .auth || error.kind == .notFound:
                showLogin(message: nil)
            case .failure(let error):
                showLogin(message: error.message)
            }
        })
    }

    func signedIn(_ name: String, isAdmin: Bool = false, welcome: Welcome) {
        username = name
        self.isAdmin = isAdmin
        if !visibleTabs.contains(tab) { tab = .post }
        self.welcome = welcome
        clockOffset = welcome.serverTime - Timestamp.now()
        login = nil
        setStatus("Signed in as \(name)" + (pictureNotice.map { " · " + $0 } ?? ""))
        current.activate()
        // A roster import's one-time password: asked to be replaced at once, whichever tab is open.
        backend.perform(retry: true, { session throws(ClientError) in _ = try session.feeds() }, then: { [self] result in
            if case .failure(let error) = result, error.serverCode == .passwordChangeRequired { replaceOneTimePassword() }
        })
    }

    /// How the app starts on a terminal: resuming the saved login, or, with no login saved for
    /// any server, straight on the form without connecting (a first start has nothing to
    /// resume, and perhaps no server running at the default address), the server field first
    /// when no server was named or saved.
    func startOnTerminal() {
        guard hasSavedLogin else {
            showLogin(message: nil, askServer: !serverChosen)
            return
        }
        start()
    }

    /// Any session saved in the state folder (for this server or another name of it); true
    /// when the folder cannot be read, so connecting reports why.
    private var hasSavedLogin: Bool {
        guard let sessions = try? state.sessions() else { return true }
        return !sessions.isEmpty
    }

    /// Whether a server was named (`--server`, `SNAPSHARE_SERVER`) or saved at a login.
    private var serverChosen: Bool {
        if startSettings?.serverNamed == true { return true }
        return ((try? state.config().server) ?? nil) != nil
    }

    func showLogin(message: String?, askServer: Bool = false) {
        let form = LoginScreen(app: self, askServer: askServer)
        // The tab it covers lets go of what it holds (a running camera).
        if login == nil { screens[tab]?.deactivate() }
        login = form
        if let message { setStatus(message, isError: true) } else { setStatus("Log in or register to start") }
    }

    /// A server trusted on first use: its fingerprint, to compare with the one the instructor's
    /// server printed, as `snapshare register` prints it. Shown at once, or after the box or
    /// dialog open now.
    func announce(_ notice: SessionNotice) {
        show(.text(title: "Server trusted on first use", lines: Self.lines(of: notice)))
    }

    /// A first-use notice for a box: the fingerprint in two halves, so it fits an 80-column window whole.
    static func lines(of notice: SessionNotice) -> [String] {
        switch notice {
        case .trustedOnFirstUse(let server, let hex, let isAuthority):
            return ["Trusting \(server) on first use. SHA-256 fingerprint of its "
                        + (isAuthority ? "certificate authority:" : "certificate:")]
                + fingerprintLines(hex)
                + ["",
                    "Compare it with the one snapshare-server printed at its start (\"clients without --ca pin it\"). "
                        + "A certificate from " + (isAuthority ? "another authority" : "another key") + " will be refused."]
        }
    }

    // MARK: Status

    /// The status line as shown now: its text, and whether it says something failed.
    var status: (text: String, isError: Bool)? { visibleStatus.map { ($0.text, $0.isError) } }

    /// The status line when the screen it belongs to shows.
    private var visibleStatus: StatusLine? {
        guard let statusLine, statusLine.owner == currentOwner else { return nil }
        return statusLine
    }

    /// Where a status said now belongs.
    private var currentOwner: StatusLine.Owner { login == nil ? .tab(tab) : .login }

    /// Says `text` on the status line of the screen shown now: a note, or an error.
    func setStatus(_ text: String, isError: Bool = false) {
        setStatus(text, kind: isError ? .error : .note)
    }

    /// Says `text`, of `kind` (`.progress` for work under way, which stays until replaced).
    func setStatus(_ text: String, kind: StatusLine.Kind) {
        statusLine = text.isEmpty ? nil : StatusLine(text: PrintableText.clean(text), kind: kind, owner: currentOwner, said: clock())
    }

    /// A failed request said on the status line; an ended login opens the form.
    func report(_ error: ClientError) {
        guard !takesOver(error) else { return }
        setStatus(error.message, isError: true)
    }

    /// An error that is not the request's but the login's: an ended session opens the form, a
    /// one-time password asks for the student's own. True when `error` was one.
    private func takesOver(_ error: ClientError) -> Bool {
        if error.kind == .auth, [.sessionInvalid, .authRequired, .accountClosed].contains(error.serverCode) {
            showLogin(message: error.message)
            return true
        }
        if error.serverCode == .passwordChangeRequired {
            replaceOneTimePassword()
            return true
        }
        return false
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

    /// `request` for a dialog's answer: success closes the dialog (`finish(.done)`), then runs
    /// `then`; a refusal keeps the dialog open with the reason inside, to answer again.
    func request<T>(retry: Bool, answering finish: @escaping (Dialog.Outcome) -> Void,
                    _ work: @escaping (SnapshareSession) throws(ClientError) -> T, then: @escaping (T) -> Void) {
        backend.perform(retry: retry, work, then: { [self] result in
            switch result {
            case .success(let value):
                finish(.done)
                then(value)
            case .failure(let error):
                guard takesOver(error) else { return finish(.refused(error.message)) }
                finish(.done)
            }
        })
    }

    // MARK: Overlays

    /// Shows `overlay` now, or once the box or dialog open now has closed.
    func show(_ overlay: Overlay) {
        if self.overlay == nil { self.overlay = overlay } else { waitingOverlays.append(overlay) }
    }

    /// Opens `dialog` over the screen; it comes off when it closes.
    func present(_ dialog: Dialog) {
        dialog.onClose = { [weak self, unowned dialog] in
            guard let self, case .dialog(let shown)? = overlay, shown === dialog else { return }
            closeOverlay()
        }
        overlay = .dialog(dialog)
    }

    /// Asks `question`; y runs `yes`, which finishes the dialog (a refusal stays inside it).
    func confirm(_ question: String, yes: @escaping Dialog.Submit) {
        present(Dialog(confirm: question, yes: yes, no: { [weak self] in self?.setStatus("Nothing changed") }))
    }

    /// The overlay shown comes off; the next waiting one shows.
    private func closeOverlay() {
        overlay = waitingOverlays.isEmpty ? nil : waitingOverlays.removeFirst()
    }

    // MARK: Events

    /// The tabs shown: Reports for admins only.
    var visibleTabs: [Tab] { Tab.allCases.filter { $0 != .reports || isAdmin } }

    private func neighbour(_ step: Int) -> Tab {
        let tabs = visibleTabs
        let index = tabs.firstIndex(of: tab) ?? 0
        return tabs[(index + step + tabs.count) % tabs.count]
    }

    func select(_ tab: Tab) {
        guard login == nil, visibleTabs.contains(tab) else { return }
        if tab != self.tab {
            current.deactivate()
            // What was said on the tab left was said there: it goes with it.
            statusLine = nil
        }
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
        var app = self
        if case .refused = backend.link {
            _ = Self.refusedKeys.handle(event, on: &app)
            return
        }
        if let overlay {
            // Ctrl-C and Ctrl-Z work everywhere; nothing else reaches the screen behind.
            if !Self.everywhereKeys.handle(event, on: &app) { handleOverlay(overlay, event) }
            return
        }
        // The tab bar is the model's, whatever the screen does with the mouse.
        if login == nil, case .mouse(let mouse) = event, mouse.row == 0 {
            _ = keys.handle(event, on: &app)
            return
        }
        if current.handle(event) { return }
        _ = keys.handle(event, on: &app, typing: current.isTyping)
    }

    private func handleOverlay(_ overlay: Overlay, _ event: InputEvent) {
        if case .dialog(let dialog) = overlay {
            dialog.handle(event)
            return
        }
        // A key or a click closes the others; the mouse moving or letting go does not.
        if case .mouse(let mouse) = event, case .press = mouse.action {} else if case .mouse = event { return }
        closeOverlay()
        if case .picture(_, _, let snap?) = overlay, case .key(.character("r"), _) = event { askReport(snap) }
    }

    /// A roster import's one-time password: the server answers nothing else until the student
    /// chooses their own, so the app asks for it (and for the one-time one, when the session was
    /// resumed rather than typed in), then changes it and starts the screen again.
    private func replaceOneTimePassword(refusal: String? = nil) {
        // Asked once, not for every refused request: not while a question is open.
        if case .dialog = overlay { return }
        let cancel: () -> Void = { [weak self] in
            self?.setStatus("Your password is still the one-time one: the server answers nothing else until it is changed", isError: true)
        }
        let ask = { [self] (oneTime: String) in
            present(Dialog(prompt: "Your password is a one-time password: choose your own", question: refusal,
                           field: TextField(label: "New password", secret: true, limit: 1024), answer: "next", submit: { [self] new, finish in
                guard !new.isEmpty else { return finish(.refused("Type the password you want")) }
                finish(.done)
                present(Dialog(prompt: "Choose your own password", field: TextField(label: "Repeat it", secret: true, limit: 1024),
                               answer: "change the password", submit: { [self] again, finish in
                    guard new == again else {
                        finish(.done)
                        replaceOneTimePassword(refusal: "The two passwords did not match: type the new one again.")
                        return
                    }
                    backend.perform(retry: false, { session throws(ClientError) in try session.changePassword(from: oneTime, to: new) },
                                    then: { [self] result in
                        switch result {
                        case .success:
                            finish(.done)
                            lastLoginPassword = nil
                            setStatus("Password changed: from now on, log in with the one you chose")
                            current.activate()
                        case .failure(let error) where error.serverCode == .invalidArgument:
                            // The new password itself was refused (the one-time one, say): asked again, with why.
                            finish(.done)
                            lastLoginPassword = oneTime
                            replaceOneTimePassword(refusal: error.message)
                        case .failure(let error):
                            guard takesOver(error) else { return finish(.refused(error.message)) }
                            finish(.done)
                        }
                    })
                }, cancel: cancel))
            }, cancel: cancel))
        }
        if let typed = lastLoginPassword {
            ask(typed)
        } else {
            present(Dialog(prompt: "Your password is a one-time password", field: TextField(label: "The one-time password", secret: true, limit: 1024),
                           answer: "next", submit: { oneTime, finish in
                finish(.done)
                ask(oneTime)
            }, cancel: cancel))
        }
    }

    /// Decodes a snap's picture on the local worker, so the screen never stalls on it, then shows
    /// it full screen with `caption` (and `r` reporting it, when `reportable`).
    func showSnapPicture(_ bytes: [UInt8], caption: String, reportable: UInt64? = nil, status: String) {
        let limits = welcome?.displayLimits ?? Welcome.largestDecoded
        backend.performLocal({ () throws(ClientError) in
            do { return try ImageCodec.decode(bytes, limits: limits) } catch {
                throw ClientError(.local, "The snap's picture cannot be shown: \(error)")
            }
        }, then: { [self] result in
            switch result {
            case .success(let image):
                overlay = .picture(PictureCells(image), caption: caption, reportable: reportable)
                setStatus(status)
            case .failure(let error):
                setStatus(error.message, isError: true)
            }
        })
    }

    /// Asks why, then reports snap `id` to the admins. The dialog stays open until the server
    /// has the report: an empty reason, or one the server refuses, is said inside it.
    func askReport(_ id: UInt64) {
        present(Dialog(prompt: "Report snap \(id) to the admins", field: TextField(label: "What is wrong with it", limit: Self.reasonLimit),
                       countsCharacters: true, answer: "send the report", submit: { [self] reason, finish in
            let reason = reason.trimmingCharacters(in: .whitespaces)
            guard !reason.isEmpty else { return finish(.refused("Nothing sent: a report needs a reason. Type what is wrong with the snap.")) }
            request(retry: false, answering: finish, { session throws(ClientError) in try session.report(snapID: id, reason: reason) }, then: { [self] in
                setStatus("Reported snap \(id) to the admins; only they see who reported it")
            })
        }, cancel: { [weak self] in self?.setStatus("Nothing sent") }))
    }

    /// The longest reason a report takes (the protocol's).
    static let reasonLimit = 200

    // MARK: Keys

    /// The app's own keys, tried after the screen's: on the tabs, or on the login form.
    var keys: KeyTable<AppModel> { login == nil ? tabKeys : Self.loginKeys }

    /// `?`, and F1, which works while a field takes the typing too.
    private static let helpKey = KeyTable<AppModel>.Binding([.key(.function(1)), .character("?")], "these keys") { $0.overlay = .help }

    private static let suspendKey = KeyTable<AppModel>.Binding([.key(.control("z"))], "suspend (fg brings the app back)") {
        $0.suspendRequested = true
    }

    /// What works over a box or a dialog too.
    private static let everywhereKeys = KeyTable<AppModel>([
        suspendKey,
        .init([.key(.control("c"))], "quit") { $0.quit() },
    ])

    /// The tab keys for `tabs`, the ones the user has: the help names no tab they cannot open.
    private static func tabKeys(_ tabs: [Tab]) -> KeyTable<AppModel> {
        KeyTable([
            .init("switch tabs", cases: [.init([.key(.tab)]) { $0.select($0.neighbour(1)) }, .init([.key(.backTab)]) { $0.select($0.neighbour(-1)) }]
                  + tabs.map { tab in .init([.character(tab.digit)]) { $0.select(tab) } }),
            .init([.click], "a tab in the top row", event: { app, event in
                guard case .mouse(let mouse) = event, mouse.row == 0, let hit = app.tabHit(column: mouse.column) else { return false }
                app.select(hit)
                return true
            }),
            helpKey,
            suspendKey,
            .init([.character("q"), .key(.control("c"))], "quit") { $0.quit() },
        ])
    }

    private static let studentTabKeys = tabKeys(Tab.allCases.filter { $0 != .reports })
    private static let adminTabKeys = tabKeys(Tab.allCases)

    private var tabKeys: KeyTable<AppModel> { isAdmin ? Self.adminTabKeys : Self.studentTabKeys }

    private static let loginKeys = KeyTable<AppModel>([
        helpKey,
        suspendKey,
        .init([.key(.control("c"))], "quit") { $0.quit() },
    ])

    /// On the refused-certificate screen: nothing else can work until the user acts.
    private static let refusedKeys = KeyTable<AppModel>([
        .init([.character("t")], "trust the certificate presented now (after comparing it)") { $0.trustPresented() },
        .init([.character("r")], "try again") { $0.tryAgain() },
        .init([.character("q"), .key(.control("c"))], "quit") { $0.quit() },
    ])

    /// Pins what the refused server presented, as `snapshare trust` does, then tries again.
    private func trustPresented() {
        guard case .refused(_, .checkChangedCertificate(let server, _, let presented)?) = backend.link else { return }
        do { try state.trust(fingerprint: presented, for: server) } catch {
            setStatus(error.description, isError: true)
            return
        }
        setStatus("Trusting \(server) with the certificate presented now")
        tryAgain()
    }

    private func tryAgain() {
        backend.tryAgainAfterRefusal()
        if username == nil && login == nil { start() } else if username != nil { current.activate() } else {
            setStatus("Trying again: log in or register")
        }
    }

    /// The tab whose title is at `column` of the tab bar.
    private func tabHit(column: Int) -> Tab? {
        var at = 0
        for tab in visibleTabs {
            let width = Self.tabLabel(tab).count
            if column >= at && column < at + width { return tab }
            at += width + 1
        }
        return nil
    }

    private static func tabLabel(_ tab: Tab) -> String { " \(tab.rawValue + 1) \(tab.title) " }

    func tick() {
        if let statusLine, statusLine.isOver(now: clock()) { self.statusLine = nil }
        // The connection watched on every screen, not only on those that poll: a lost server
        // shows its banner wherever the student is.
        if login == nil, username != nil { backend.checkConnection() }
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
        protocolThumbnails = []
        layout(columns: columns, rows: rows)
        return draw()
    }

    private var fitsMinimum: Bool { size.columns >= Self.minimumSize.columns && size.rows >= Self.minimumSize.rows }

    /// The reconnecting banner as last laid out: up to three rows under the tab bar (the reason
    /// whole: "is snapshare-server running at…?" takes three at 80 columns), none while connected.
    private var banner: [String] = []

    /// Where the screen goes: between the tab bar with the row under it (or the banner's rows)
    /// and the status line's rows.
    private var screenArea: Rect {
        let top = 1 + max(1, banner.count)
        return Rect(x: 0, y: top, width: size.columns, height: size.rows - top - StatusLine.rows)
    }

    /// Where a full-screen picture goes: everything above its caption.
    private var pictureArea: Rect { Rect(x: 0, y: 0, width: size.columns, height: size.rows - 1) }

    /// Lays the frame out: the banner, a status too long for its rows shown whole in a box, and
    /// the current screen, unless a full-screen picture or the window's size hides it.
    private func layout(columns: Int, rows: Int) {
        size = (columns, rows)
        guard fitsMinimum else { return }
        if case .reconnecting(let reason) = backend.link {
            banner = TextWrap.lines("reconnecting… (\(PrintableText.clean(reason)))", width: columns - 2, atMost: 3)
        } else {
            banner = []
        }
        if overlay == nil, let status = visibleStatus, !status.shownInBox, status.lines(width: columns - 2).count > StatusLine.rows {
            statusLine?.shownInBox = true
            overlay = .text(title: status.isError ? "What went wrong" : "Note", lines: [status.text])
        }
        if case .picture = overlay { return }
        current.layout(in: screenArea)
    }

    /// The thumbnails of the frame last rendered that go through the kitty protocol, and where;
    /// their cells are left blank. Only kitty's pictures have ids, so only there can a scroll or
    /// a redraw take each away and put it back exactly (`KittyThumbnails`); with sixel and
    /// iTerm2, thumbnails are half blocks.
    private(set) var protocolThumbnails: [KittyThumbnails.Placement] = []

    /// Draws a thumbnail (a sample in the picker, a photo of an album) as large as it fits in
    /// `area`: through the kitty protocol when the app uses it, else in half blocks.
    func drawThumbnail(_ picture: PictureCells, into grid: inout CellGrid, area: Rect) {
        guard area.width > 0, area.height > 0 else { return }
        if pictures == .kitty {
            protocolThumbnails.append(KittyThumbnails.Placement(picture: picture, area: area))
        } else {
            picture.draw(into: &grid, area: area, depth: depth)
        }
    }

    /// The full-screen picture when it goes through a graphics protocol, and where: the loop
    /// sends it after the cells (`AppRunner`).
    var protocolPicture: (picture: PictureCells, area: Rect)? {
        guard fitsMinimum, pictures != .halfblock, case .picture(let picture, _, _) = overlay else { return nil }
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
        if case .refused(let message, let remedy) = backend.link {
            drawRefusal(into: &grid, message: message, remedy: remedy)
            return grid
        }
        if case .picture(let picture, let caption, _) = overlay {
            if pictures == .halfblock { picture.draw(into: &grid, area: pictureArea, depth: depth) }
            // One line: shortened at a word, never cut inside one.
            grid.write(TextWrap.shortened(PrintableText.clean(caption), width: columns), column: 0, row: rows - 1, style: Style(bold: true))
            return grid
        }
        drawTabBar(into: &grid)
        current.draw(into: &grid, area: screenArea)
        drawStatus(into: &grid)
        switch overlay {
        case .help: DialogBox.draw(into: &grid, title: "Keys", lines: helpLines().map { .text($0) })
        case .text(let title, let lines): DialogBox.draw(into: &grid, title: title, lines: (lines + ["", "any key closes"]).map { .text($0) })
        case .dialog(let dialog):
            DialogBox.draw(into: &grid, title: dialog.title, lines: dialog.lines(errorStyle: Style(foreground: decorations.error, bold: true)))
        case .picture, nil: break
        }
        return grid
    }

    private var accent: Style { colour ? Style(foreground: .indexed(0), background: .indexed(45), bold: true) : Style(bold: true, reverse: true) }

    private func drawTabBar(into grid: inout CellGrid) {
        var at = 0
        if login != nil {
            at = grid.write(" Snapshare ", column: 0, row: 0, style: accent)
        } else {
            for tab in visibleTabs {
                let label = Self.tabLabel(tab)
                at += grid.write(label, column: at, row: 0, style: tab == self.tab ? accent : Style(underline: true)) + 1
            }
        }
        let right = headerHints(room: grid.columns - at - 2)
        grid.write(right, column: grid.columns - DisplayWidth.of(right) - 1, row: 0)
        let style = colour ? Style(foreground: .indexed(0), background: .indexed(214)) : Style(reverse: true)
        for (index, line) in banner.enumerated() {
            grid.fill(columns: 0..<grid.columns, rows: 1 + index..<2 + index, style: style)
            grid.write(line, column: 1, row: 1 + index, style: style, width: grid.columns - 2)
        }
    }

    /// The right end of the top row: who is signed in and the keys that work now (F1 and Ctrl-C
    /// while a field takes the typing, where ? and q are letters; Ctrl-C alone over a dialog),
    /// within `room` columns: the hints go first, then the name is shortened.
    private func headerHints(room: Int) -> String {
        var parts = [username.map(PrintableText.clean)].compactMap { $0 }
        if case .dialog = overlay {
            parts.append("Ctrl-C quit")
        } else if current.isTyping {
            parts += ["F1 keys", "Ctrl-C quit"]
        } else {
            parts += ["? keys", "q quit"]
        }
        while parts.count > 1 && DisplayWidth.of(parts.joined(separator: " · ")) > room { parts.removeLast() }
        return TextWrap.shortened(parts.joined(separator: " · "), width: max(0, room))
    }

    /// The whole screen for a refused certificate: what happened, what to do, in full, wrapped
    /// to the window, and the keys that work here.
    private func drawRefusal(into grid: inout CellGrid, message: String, remedy: Remedy?) {
        grid.write(" Snapshare ", column: 0, row: 0, style: accent)
        let width = grid.columns - 4
        let wrap = { (text: String) in TextWrap.lines(text, width: width).map { ($0, false) } }
        var lines = TextWrap.lines(PrintableText.clean(message), width: width).map { ($0, true) } + [("", false)]
        var keys = "r  try again        q  quit"
        if case .checkChangedCertificate(let server, let trusted, let presented) = remedy {
            lines += wrap("This may be an attack: someone between you and \(server), showing their own certificate.")
            lines += [("", false), ("Trusted before:", false)] + Self.fingerprintLines(trusted).map { ($0, false) }
            lines += [("Presented now:", false)] + Self.fingerprintLines(presented).map { ($0, true) }
            lines += [("", false)]
            lines += wrap("If your instructor renewed it, compare the one presented now with the fingerprint snapshare-server "
                          + "printed at its start (\"clients without --ca pin it\"). Only if they match, press t to trust it "
                          + "(the same as `snapshare trust \(server) FINGERPRINT` in another terminal).")
            keys = "t  trust it        " + keys
        } else {
            lines += wrap("The server's certificate cannot be trusted, so nothing was sent. Tell your instructor what it says "
                          + "above; when they have fixed it, press r here.")
        }
        lines += [("", false), (keys, false)]
        let top = max(2, (grid.rows - lines.count) / 2)
        for (index, (line, bold)) in lines.enumerated() where top + index < grid.rows {
            grid.write(line, column: 2, row: top + index, style: Style(bold: bold), width: width)
        }
    }

    /// A fingerprint kept as hex, as two indented halves in colon form: the whole of it fits an
    /// 80-column window.
    static func fingerprintLines(_ hex: String) -> [String] {
        let pairs = DevCertificateAuthority.formatFingerprint(hex: hex).split(separator: ":")
        let half = (pairs.count + 1) / 2
        return ["  " + pairs.prefix(half).joined(separator: ":") + ":", "  " + pairs.dropFirst(half).joined(separator: ":")]
    }

    /// The status line in its two rows at the bottom, wrapped; one too long for them was shown
    /// whole in a box, and ends here at a word.
    private func drawStatus(into grid: inout CellGrid) {
        guard let status = visibleStatus else { return }
        let style = status.isError ? Style(foreground: decorations.error, bold: true) : Style.plain
        let lines = TextWrap.lines(status.text, width: grid.columns - 2, atMost: StatusLine.rows)
        for (index, line) in lines.enumerated() {
            grid.write(line, column: 1, row: grid.rows - lines.count + index, style: style, width: grid.columns - 2)
        }
    }

    /// The `?` box: the screen's keys as they are now, then the app's, from their tables.
    private func helpLines() -> [String] {
        let line = { (keys: String, meaning: String) in keys.padding(toLength: max(keys.count + 2, 24), withPad: " ", startingAt: 0) + meaning }
        return current.keyHelp.map(line) + [""] + keys.help.map(line)
    }
}
