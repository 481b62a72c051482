import Foundation
import Posix
import TerminalUI
import Wire

/// The app as a value the loop drives, and the router between its parts. It holds which tab
/// shows, what is over it and what the status line says; it hands each event to the one part
/// that takes it (the trust screen, else the overlay, else the screen shown, then the app's own
/// keys), and lays each frame out before drawing it. The parts: each tab's screen
/// (`TabScreens`), who is signed in and the login form (`SignIn`), a refused certificate
/// (`TrustScreen`), what goes over a screen (`Overlay`: `Dialog`, `PictureView`, boxes), what
/// goes around it (`AppChrome`) and the app's keys (`AppKeys`). Everything the server is asked
/// goes through `backend`; results come back on the app's thread through the loop.
final class AppModel {
    let backend: AppBackend
    let environment: [String: String]
    let state: ClientState
    let depth: ColorDepth
    /// Decorations (tab bar, markers) coloured: NO_COLOR unset and a terminal that shows colour.
    let colour: Bool

    /// The server and CA the app was started with (the login form starts from them).
    var startSettings: ConnectionSettings?
    /// How full-screen pictures are drawn (`--pictures`, or what the terminal showed it has);
    /// thumbnails too with kitty (`protocolThumbnails`), half blocks otherwise.
    var pictures = PictureProtocol.halfblock
    /// Why `pictures` is not the protocol asked for, said once signed in.
    var pictureNotice: String?
    /// The camera the Post tab's Camera tile reads (`--camera-device`).
    var cameraDevice = CameraDevice.platformDefault
    /// What the terminal said of itself (cell size, sixel registers), for protocol pictures.
    var terminalFacts = TerminalFacts()
    /// The terminal's background is light (OSC 11): decorations take colours that read on it.
    var lightBackground = false
    /// The app's clock in milliseconds, for how long a status lasts (tests move it by hand).
    var clock: () -> Int64 = MonotonicClock.milliseconds

    private(set) var tab = AppTab.post
    /// What is over the screen, and what waits to be.
    private var overlays = OverlayQueue()
    /// Over the screen, taking every key while it shows.
    var overlay: Overlay? {
        get { overlays.shown }
        set { overlays.shown = newValue }
    }
    /// The status line, while its screen shows and its moment lasts.
    private(set) var statusLine: StatusLine?
    private(set) var quitRequested = false
    /// Ctrl-Z was pressed: the loop hands the terminal back, and clears this once it is back.
    var suspendRequested = false
    /// The top row, the banner and the status line's place, as last laid out.
    private(set) var chrome = AppChrome()

    private let makeScreens: (AppModel) -> TabScreens
    /// The parts that hold the app, made with it.
    private(set) lazy var screens = makeScreens(self)
    private(set) lazy var signIn = SignIn(app: self)
    private(set) lazy var trust = TrustScreen(app: self)

    init(
        backend: AppBackend, environment: [String: String], state: ClientState, depth: ColorDepth, colour: Bool,
        makeScreens: @escaping (AppModel) -> TabScreens
    ) {
        self.backend = backend
        self.environment = environment
        self.state = state
        self.depth = depth
        self.colour = colour
        self.makeScreens = makeScreens
        // The screens start now (Post decodes its pictures at once), not when first shown.
        _ = screens
        // A server pinned on first use by any connection the backend makes: its fingerprint shown.
        backend.onNotice = { [weak self] notice in self?.trust.announce(notice) }
    }

    var username: String? { signIn.account?.username }
    /// The class the app acts in, when the server has classes.
    var className: String? { signIn.account?.className }
    var isAdmin: Bool { signIn.account?.isAdmin ?? false }
    var welcome: Welcome? { signIn.account?.welcome }
    /// The login form, shown instead of the tabs while nobody is signed in.
    var login: LoginScreen? { signIn.form }
    /// Now, on the server's clock (ages are the server's).
    var now: Int64 { Timestamp.now() + (signIn.account?.clockOffset ?? 0) }
    /// The decoration colours for this terminal's background (none without colour).
    var decorations: Decorations { Decorations.chosen(colour: colour, lightBackground: lightBackground) }

    /// The screen shown: the login form, or the tab's.
    var current: any AppScreen { login ?? screens[tab] }

    func start() { signIn.start() }
    func startOnTerminal() { signIn.startOnTerminal() }
    func signedIn(_ name: String, isAdmin: Bool = false, welcome: Welcome) { signIn.signedIn(name, isAdmin: isAdmin, welcome: welcome) }

    /// How a certificate's fingerprint shows in the app (`TrustScreen`).
    static func fingerprintLines(_ hex: String) -> [String] { TrustScreen.fingerprintLines(hex) }

    // MARK: Tabs

    /// The tabs shown: Reports for admins only.
    var visibleTabs: [AppTab] { AppTab.allCases.filter { $0 != .reports || isAdmin } }

    func select(_ tab: AppTab) {
        guard login == nil, visibleTabs.contains(tab) else { return }
        if tab != self.tab {
            current.deactivate()
            // What was said on the tab left was said there: it goes with it.
            statusLine = nil
        }
        self.tab = tab
        current.activate()
    }

    /// The tabs again once signed in: the tab shown (Post when this user has not got it), saying `note` there.
    func showTabs(saying note: String) {
        if !visibleTabs.contains(tab) { tab = .post }
        setStatus(note)
        current.activate()
    }

    func quit() { quitRequested = true }

    // MARK: Events

    /// The app's own keys, tried after the screen's: the tabs', or the login form's.
    var keys: KeyTable<AppModel> { login != nil ? AppKeys.login : isAdmin ? AppKeys.admin : AppKeys.student }

    /// Hands `event` to the part on top; false when no key table took it.
    @discardableResult
    func handle(_ event: InputEvent) -> Bool {
        // The app binds nothing to Alt: Esc typed quickly before a key arrives as Alt+key, and
        // means Esc, then the key.
        if case .key(let key, let modifiers) = event, modifiers.contains(.alt) {
            let escape = handle(.key(.escape))
            return handle(.key(key, modifiers.subtracting(.alt))) || escape
        }
        var app = self
        // Ctrl-C and Ctrl-Z work everywhere; nothing else reaches what a refusal or an overlay covers.
        if trust.refusal != nil { return trust.handle(event) || AppKeys.everywhere.handle(event, on: &app) }
        if let overlay { return AppKeys.everywhere.handle(event, on: &app) || overlay.keys.handle(event, on: &app) }
        // The tab bar is the app's, whatever the screen does with the mouse.
        if login == nil, case .mouse(let mouse) = event, mouse.row == 0 { return keys.handle(event, on: &app) }
        return current.handle(event) || keys.handle(event, on: &app, typing: current.isTyping)
    }

    func tick() {
        if let statusLine, statusLine.isOver(now: clock()) { self.statusLine = nil }
        // The connection watched on every screen, not only on those that poll: a lost server
        // shows its banner wherever the student is.
        if login == nil, username != nil { backend.checkConnection() }
        checkClasses()
        current.tick(now: now)
    }

    /// Closing: every screen sends what it still holds, and the backend gets a moment to send it.
    func finish() {
        guard login == nil else { return }
        for screen in screens.all { screen.finish() }
        backend.drain(timeout: 3)
    }

    // MARK: Status and requests

    /// The status line as shown now: its text, and whether it says something failed.
    var status: (text: String, isError: Bool)? { visibleStatus.map { ($0.text, $0.isError) } }

    /// The status line when the screen it belongs to shows.
    var visibleStatus: StatusLine? { statusLine?.owner == statusOwner ? statusLine : nil }

    /// Where a status said now belongs.
    private var statusOwner: StatusLine.Owner { login == nil ? .tab(tab) : .login }

    /// Says `text` on the status line of the screen shown now: a note, or an error.
    func setStatus(_ text: String, isError: Bool = false) { setStatus(text, kind: isError ? .error : .note) }

    /// Says `text`, of `kind` (`.progress` for work under way, which stays until replaced).
    func setStatus(_ text: String, kind: StatusLine.Kind) {
        statusLine = text.isEmpty ? nil : StatusLine(text: PrintableText.clean(text), kind: kind, owner: statusOwner, said: clock())
    }

    /// A failed request said on the status line; an ended login opens the form.
    func report(_ error: ClientError) {
        guard !signIn.takesOver(error) else { return }
        setStatus(error.message, isError: true)
    }

    /// `perform` on the backend with failures reported on the status line. `retry` has no
    /// default: each call says whether it may be sent again after a lost connection (reads,
    /// and writes that change nothing the second time), so a write is never repeated by accident.
    func request<T>(retry: Bool, _ work: @escaping (SnapshareSession) throws(ClientError) -> T, then: @escaping (T) -> Void) {
        backend.perform(
            retry: retry, work,
            then: { [self] result in
                switch result {
                case .success(let value): then(value)
                case .failure(let error): report(error)
                }
            })
    }

    /// `request` for a dialog's answer: success closes the dialog (`finish(.done)`), then runs
    /// `then`; a refusal keeps the dialog open with the reason inside, to answer again.
    func request<T>(
        retry: Bool, answering finish: @escaping (Dialog.Outcome) -> Void,
        _ work: @escaping (SnapshareSession) throws(ClientError) -> T, then: @escaping (T) -> Void
    ) {
        backend.perform(
            retry: retry, work,
            then: { [self] result in
                switch result {
                case .success(let value):
                    finish(.done)
                    then(value)
                case .failure(let error):
                    guard signIn.takesOver(error) else { return finish(.refused(error.message)) }
                    finish(.done)
                }
            })
    }

    // MARK: Overlays

    /// Shows `overlay` now, or once the box or dialog open now has closed.
    func show(_ overlay: Overlay) { overlays.show(overlay) }

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
    func closeOverlay() { overlays.close() }

    // MARK: Frames

    /// One frame of `columns` x `rows`: laid out, then drawn.
    func render(columns: Int, rows: Int) -> CellGrid {
        layout(columns: columns, rows: rows)
        return draw()
    }

    /// The one step of a frame that may change state: the chrome, a status too long for its
    /// rows shown whole in a box, and the screen shown, unless a full-screen picture or the
    /// window's size hides it.
    func layout(columns: Int, rows: Int) {
        chrome.layout(columns: columns, rows: rows, tabs: login == nil ? visibleTabs : nil, link: backend.link)
        guard chrome.fits else { return }
        if overlay == nil, let status = visibleStatus, !status.shownInBox, status.lines(width: columns - 2).count > StatusLine.rows {
            statusLine?.shownInBox = true
            overlay = .text(title: status.isError ? "What went wrong" : "Note", lines: [status.text])
        }
        if case .picture = overlay { return }
        current.layout(in: chrome.screenArea)
    }

    /// The frame as last laid out; it only reads, so drawing it again draws the same.
    func draw() -> CellGrid { chrome.draw(self) }

    /// Draws a screen's `thumbnails` in half blocks, unless they go through the kitty protocol
    /// (`protocolThumbnails`), where their cells stay blank.
    func draw(_ thumbnails: [KittyThumbnails.Placement], into grid: inout CellGrid) {
        guard pictures != .kitty else { return }
        for thumbnail in thumbnails { thumbnail.picture.draw(into: &grid, area: thumbnail.area, depth: depth) }
    }

    /// The kitty thumbnails and the protocol picture of the frame laid out, which the loop sends
    /// after its cells (`AppChrome`).
    var protocolThumbnails: [KittyThumbnails.Placement] { chrome.protocolThumbnails(self) }
    var protocolPicture: (picture: PictureCells, area: Rect)? { chrome.protocolPicture(self) }
}
