import Foundation
import Wire

/// Who is signed in, and the ways in: the login saved for the server resumed at the start, the
/// login form (`LoginScreen`) when there is none or the session ended, and a roster import's
/// one-time password replaced by the student's own before anything else. The app reads here
/// who is signed in: the tabs an admin has, the name in the top row, the server's clock.
final class SignIn {
    /// The signed-in user, as the server said.
    struct Account {
        let username: String
        /// The Reports tab is theirs.
        let isAdmin: Bool
        let welcome: Welcome
        /// Server time minus ours, from the Welcome (ages are the server's).
        let clockOffset: Int64
        /// The class the app acts in, on a server with classes (protocol version 5).
        var className: String?
    }

    private unowned let app: AppModel
    /// Once signed in; kept while the form shows again after a session ended.
    private(set) var account: Account?
    /// The login form, shown instead of the tabs while nobody is signed in.
    private(set) var form: LoginScreen?
    /// The password typed at the form, kept only until a one-time password is replaced.
    var lastLoginPassword: String?
    /// Another of the account's classes has something unread (the top row's dot).
    var otherClassesUnread = false
    /// When the classes were last looked at (the app's clock), and whether a look is on its way.
    private(set) var classesCheckedAt: Int64 = .min / 2
    private(set) var checkingClasses = false

    func classesChecking(at now: Int64) {
        classesCheckedAt = now
        checkingClasses = true
    }

    func classesChecked() { checkingClasses = false }

    /// The app acts in `handle` now.
    func classChanged(to handle: String) { account?.className = handle }

    init(app: AppModel) { self.app = app }

    /// Resumes the saved login in the background; the login form opens when there is none.
    func start() {
        app.setStatus("Connecting…", kind: .progress)
        app.backend.perform(
            retry: true,
            { session throws(ClientError) in
                let current = session.speaksClasses ? (try? session.classes())?.first(where: \.isCurrent)?.handle : nil
                return (try session.whoAmI(), session.welcome, current)
            },
            then: { [self] result in
                switch result {
                case .success(let (identity, welcome, current)):
                    signedIn(identity.username, isAdmin: identity.isAdmin, welcome: welcome)
                    account?.className = current
                case .failure(let error) where error.kind == .auth || error.kind == .notFound:
                    showForm(message: nil)
                case .failure(let error):
                    showForm(message: error.message)
                }
            })
    }

    /// How the app starts on a terminal: resuming the saved login, or, with no login saved for
    /// any server, straight on the form without connecting (a first start has nothing to
    /// resume, and perhaps no server running at the default address), the server field first
    /// when no server was named or saved.
    func startOnTerminal() {
        guard hasSavedLogin else {
            showForm(message: nil, askServer: !serverChosen)
            return
        }
        start()
    }

    /// Any session saved in the state folder (for this server or another name of it); true
    /// when the folder cannot be read, so connecting reports why.
    private var hasSavedLogin: Bool {
        guard let sessions = try? app.state.sessions() else { return true }
        return !sessions.isEmpty
    }

    /// Whether a server was named (`--server`, `SNAPSHARE_SERVER`) or saved at a login.
    private var serverChosen: Bool {
        if app.startSettings?.serverNamed == true { return true }
        return ((try? app.state.config().server) ?? nil) != nil
    }

    func signedIn(_ name: String, isAdmin: Bool = false, welcome: Welcome) {
        account = Account(username: name, isAdmin: isAdmin, welcome: welcome, clockOffset: welcome.serverTime - Timestamp.now())
        form = nil
        app.showTabs(saying: "Signed in as \(name)" + (app.pictureNotice.map { " · " + $0 } ?? ""))
        // A roster import's one-time password: asked to be replaced at once, whichever tab is open.
        app.backend.perform(
            retry: true, { session throws(ClientError) in _ = try session.feeds() },
            then: { [self] result in
                if case .failure(let error) = result, error.serverCode == .passwordChangeRequired { replaceOneTimePassword() }
            })
    }

    /// The form instead of the tabs, saying `message` (why the session ended) if any.
    func showForm(message: String?, askServer: Bool = false) {
        // The tab it covers lets go of what it holds (a running camera).
        if form == nil { app.current.deactivate() }
        form = LoginScreen(app: app, askServer: askServer)
        if let message { app.setStatus(message, isError: true) } else { app.setStatus("Log in or register to start") }
    }

    /// After a refused certificate, `r` or `t`: what was under way carries on.
    func resumeAfterRefusal() {
        if account == nil && form == nil {
            start()
        } else if account != nil {
            app.current.activate()
        } else {
            app.setStatus("Trying again: log in or register")
        }
    }

    /// An error that is not the request's but the login's: an ended session opens the form, a
    /// one-time password asks for the student's own. True when `error` was one.
    func takesOver(_ error: ClientError) -> Bool {
        if error.kind == .auth, [.sessionInvalid, .authRequired, .accountClosed].contains(error.serverCode) {
            showForm(message: error.message)
            return true
        }
        if error.serverCode == .passwordChangeRequired {
            replaceOneTimePassword()
            return true
        }
        return false
    }

    /// A roster import's one-time password: the server answers nothing else until the student
    /// chooses their own, so the app asks for it (and for the one-time one, when the session was
    /// resumed rather than typed in), then changes it and starts the screen again.
    private func replaceOneTimePassword(refusal: String? = nil) {
        // Asked once, not for every refused request: not while a question is open.
        if case .dialog = app.overlay { return }
        let cancel: () -> Void = { [weak app] in
            app?.setStatus("Your password is still the one-time one: the server answers nothing else until it is changed", isError: true)
        }
        let ask = { [self] (oneTime: String) in
            app.present(
                Dialog(
                    prompt: "Your password is a one-time password: choose your own", question: refusal,
                    field: TextField(label: "New password", secret: true, limit: 1024), answer: "next",
                    submit: { [self] new, finish in
                        guard !new.isEmpty else { return finish(.refused("Type the password you want")) }
                        finish(.done)
                        app.present(
                            Dialog(
                                prompt: "Choose your own password", field: TextField(label: "Repeat it", secret: true, limit: 1024),
                                answer: "change the password",
                                submit: { [self] again, finish in
                                    guard new == again else {
                                        finish(.done)
                                        replaceOneTimePassword(refusal: "The two passwords did not match: type the new one again.")
                                        return
                                    }
                                    change(from: oneTime, to: new, finish: finish)
                                }, cancel: cancel))
                    }, cancel: cancel))
        }
        if let typed = lastLoginPassword {
            ask(typed)
        } else {
            app.present(
                Dialog(
                    prompt: "Your password is a one-time password",
                    field: TextField(label: "The one-time password", secret: true, limit: 1024),
                    answer: "next",
                    submit: { oneTime, finish in
                        finish(.done)
                        ask(oneTime)
                    }, cancel: cancel))
        }
    }

    /// Sends the new password; a refusal of the new one itself (the one-time one, say) asks
    /// again, saying why.
    private func change(from oneTime: String, to new: String, finish: @escaping (Dialog.Outcome) -> Void) {
        app.backend.perform(
            retry: false, { session throws(ClientError) in try session.changePassword(from: oneTime, to: new) },
            then: { [self] result in
                switch result {
                case .success:
                    finish(.done)
                    lastLoginPassword = nil
                    app.setStatus("Password changed: from now on, log in with the one you chose")
                    app.current.activate()
                case .failure(let error) where error.serverCode == .invalidArgument:
                    finish(.done)
                    lastLoginPassword = oneTime
                    replaceOneTimePassword(refusal: error.message)
                case .failure(let error):
                    guard takesOver(error) else { return finish(.refused(error.message)) }
                    finish(.done)
                }
            })
    }
}
