import TerminalUI
import Wire

/// The login and register form: server, name, password, and the class code a new account needs.
/// It signs in exactly as `snapshare login` does, so the same state is saved: the session, the
/// trusted fingerprint, and the server and CA as the defaults in config.json.
final class LoginScreen: AppScreen {
    private unowned let app: AppModel
    private var fields: [TextField]
    /// 0-3 the fields, 4 "Log in", 5 "Register".
    private var focus = 1
    private var busy = false
    private static let buttons = ["Log in", "Register"]

    /// `askServer`: nothing says which server to use yet (a first start), so the server field
    /// has the focus; otherwise the name field does.
    init(app: AppModel, askServer: Bool = false) {
        self.app = app
        focus = askServer ? 0 : 1
        let server = app.startSettings?.serverKey ?? ((try? app.state.config().server) ?? nil)
        fields = [
            TextField(label: "Server", text: server ?? ConnectionSettings.defaultServer),
            TextField(label: "Name", limit: 64),
            TextField(label: "Password", secret: true, limit: 1024),
            TextField(label: "Class code (new accounts)", limit: 128),
        ]
    }

    /// Nothing while signing in: the app's own keys (Ctrl-C) still work. A field takes the
    /// typing; on a button, q quits.
    var keys: KeyTable<LoginScreen> { busy ? KeyTable([]) : isTyping ? Self.fieldKeys : Self.buttonKeys }

    private static let formKeys: [KeyTable<LoginScreen>.Binding] = [
        .init(
            "next or previous field or button",
            cases: [
                .init([.key(.tab), .key(.down)]) { $0.focus = ($0.focus + 1) % ($0.fields.count + 2) },
                .init([.key(.backTab), .key(.up)]) { $0.focus = ($0.focus + $0.fields.count + 1) % ($0.fields.count + 2) },
            ]),
        .init([.key(.enter)], "next field; on a button, press it") { $0.enter() },
        .init([.key(.control("l"))], "log in from any field") { $0.submit(register: false) },
        .init([.key(.control("r"))], "register from any field") { $0.submit(register: true) },
        .init(
            [.click], "a field or a button",
            event: { screen, event in
                guard case .mouse(let mouse) = event else { return false }
                screen.click(mouse)
                return true
            }),
    ]

    private static let fieldKeys = KeyTable<LoginScreen>(
        formKeys + [
            .init(
                [.typing], "the field",
                event: { screen, event in
                    guard screen.focus < screen.fields.count else { return false }
                    return screen.fields[screen.focus].handle(event)
                })
        ])

    private static let buttonKeys = KeyTable<LoginScreen>(
        formKeys + [
            .init([.character("q")], "quit (on a button)") { $0.app.quit() }
        ])

    var isTyping: Bool { focus < fields.count }

    private func enter() {
        switch focus {
        case fields.count: submit(register: false)
        case fields.count + 1: submit(register: true)
        case 2 where !fields[1].text.isEmpty: submit(register: false)
        default: focus += 1
        }
    }

    private func click(_ mouse: MouseEvent) {
        if let index = layout.fieldRows.firstIndex(of: mouse.row) { focus = index }
        switch layout.buttons.firstIndex(where: { $0.contains(column: mouse.column, row: mouse.row) }) {
        case 0: submit(register: false)
        case 1: submit(register: true)
        default: break
        }
    }

    private func submit(register: Bool) {
        let server = fields[0].text.trimmingCharacters(in: .whitespaces)
        let name = fields[1].text.trimmingCharacters(in: .whitespaces)
        let password = fields[2].text
        let code = fields[3].text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else {
            focus = 1
            app.setStatus("Type your name", isError: true)
            return
        }
        guard !password.isEmpty else {
            focus = 2
            app.setStatus("Type your password", isError: true)
            return
        }
        let state = app.state
        let settings: ConnectionSettings
        do {
            // The CA the app was started with goes with its server; another server typed uses the saved one.
            let ca = app.startSettings.flatMap { $0.serverKey == server ? $0.caFile : nil }
            settings = try ConnectionSettings.resolve(serverFlag: server.isEmpty ? nil : server, caFlag: ca, state: state)
        } catch {
            app.setStatus(error.message, isError: true)
            return
        }
        busy = true
        app.setStatus(register ? "Registering \(name)…" : "Logging in as \(name)…")
        let backend = app.backend
        // A fresh session for the server typed, adopted by the backend once signed in.
        // What the connection says (a server pinned), heard also when the login then fails.
        let heard = HeardNotice()
        backend.performSigningIn(
            { () throws(ClientError) -> (Authenticated, Welcome) in
                let session = try SnapshareSession(settings: settings, state: state) { heard.notice = $0 }
                let identity =
                    register
                    ? try session.register(username: name, password: password, classCode: code)
                    : try session.login(username: name, password: password)
                backend.adopt(session, connect: AppRunner.connect(settings: settings, state: state))
                return (identity, session.welcome)
            },
            then: { [self] result in
                busy = false
                switch result {
                case .success(let (identity, welcome)):
                    fields[2].set("")
                    app.signIn.lastLoginPassword = password
                    app.signedIn(identity.username, isAdmin: identity.isAdmin, welcome: welcome)
                case .failure(let error):
                    // A refused certificate gets the app's whole screen, not one line.
                    if error.refusedCertificate { app.backend.refuse(error) }
                    app.setStatus(error.message, isError: true)
                }
                // A server pinned just now, even when the login then failed (a wrong password): its
                // fingerprint, to compare with the instructor's; the pin is never announced again.
                if let notice = heard.notice { app.trust.announce(notice) }
            })
    }

    /// What a connection made for the form had to say, handed from the network's thread to the
    /// app's with the job's completion (which orders the two).
    private final class HeardNotice: @unchecked Sendable {
        var notice: SessionNotice?
    }

    // MARK: Layout and drawing

    /// Where the last layout put what a click can hit.
    private struct Layout {
        /// The screen row of each field.
        var fieldRows: [Int] = []
        /// "Log in" and "Register".
        var buttons: [Rect] = []
    }

    private var layout = Layout()

    func layout(in area: Rect) {
        let left = area.x + 2
        layout.fieldRows = fields.indices.map { area.y + 2 + $0 * 2 }
        let row = area.y + 2 + fields.count * 2 + 1
        var at = left
        layout.buttons = Self.buttons.map { title in
            let box = Rect(x: at, y: row, width: Self.label(title).count, height: 1)
            at += box.width + 2
            return box
        }
    }

    private static func label(_ button: String) -> String { "[ \(button) ]" }

    func draw(into grid: inout CellGrid, area: Rect) {
        let left = area.x + 2
        grid.write("Welcome to Snapshare", column: left, row: area.y, style: Style(bold: true))
        for (index, (field, row)) in zip(fields, layout.fieldRows).enumerated() {
            field.draw(
                into: &grid, column: left, row: row, labelWidth: 28, width: min(area.width - 4, 76), focused: focus == index && !busy)
        }
        for (index, (title, box)) in zip(Self.buttons, layout.buttons).enumerated() {
            let focused = focus == fields.count + index
            grid.write(Self.label(title), column: box.x, row: box.y, style: Style(bold: focused, reverse: focused))
        }
        // Two rows under the buttons.
        grid.write(
            "Tab moves between fields · Enter logs in · Ctrl-R registers · Ctrl-C quits",
            column: left, row: (layout.buttons.first?.y ?? area.y) + 2)
    }
}
