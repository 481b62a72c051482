import TLS
import TerminalUI

/// How the app handles a server's certificate. Refused (`AppBackend.Link.refused`), the whole
/// window says what happened and the fix in full, wrapped to the window, then its keys, from its
/// table; nothing else works until the user acts: `t` trusts the certificate presented now (after
/// comparing it; the same as `snapshare trust`), `r` tries again. A server trusted on first use
/// is announced in a box with its fingerprint, as `snapshare register` prints it.
final class TrustScreen: AppScreen {
    private unowned let app: AppModel

    init(app: AppModel) { self.app = app }

    /// What was refused and the fix, while the backend is refused: the screen shows then.
    var refusal: (message: String, remedy: Remedy?)? {
        if case .refused(let message, let remedy) = app.backend.link { (message, remedy) } else { nil }
    }

    /// The certificate that changed since it was trusted, when that is the refusal.
    private var changed: (server: String, trusted: String, presented: String)? {
        if case .checkChangedCertificate(let server, let trusted, let presented)? = refusal?.remedy {
            (server, trusted, presented)
        } else {
            nil
        }
    }

    var keys: KeyTable<TrustScreen> { changed == nil ? Self.refusedKeys : Self.changedKeys }

    private static let tryAgainKey = KeyTable<TrustScreen>.Binding([.character("r")], "try again") { $0.tryAgain() }
    private static let quitKey = KeyTable<TrustScreen>.Binding([.character("q")], "quit") { $0.app.quit() }
    private static let refusedKeys = KeyTable<TrustScreen>([tryAgainKey, quitKey])
    private static let changedKeys = KeyTable<TrustScreen>([
        .init([.character("t")], "trust it") { $0.trustPresented() },
        tryAgainKey,
        quitKey,
    ])

    /// Pins what the refused server presented, as `snapshare trust` does, then tries again.
    private func trustPresented() {
        guard let changed else { return }
        do { try app.state.trust(fingerprint: changed.presented, for: changed.server) } catch {
            app.setStatus(error.description, isError: true)
            return
        }
        app.setStatus("Trusting \(changed.server) with the certificate presented now")
        tryAgain()
    }

    private func tryAgain() {
        app.backend.tryAgainAfterRefusal()
        app.signIn.resumeAfterRefusal()
    }

    /// The whole window (`area`): what happened, what to do, in full, and the keys that work here.
    func draw(into grid: inout CellGrid, area: Rect) {
        guard let refusal else { return }
        grid.write(" Snapshare ", column: area.x, row: area.y, style: AppChrome.accent(colour: app.colour))
        let width = area.width - 4
        let wrap = { (text: String) in TextWrap.lines(text, width: width).map { ($0, false) } }
        var lines = TextWrap.lines(PrintableText.clean(refusal.message), width: width).map { ($0, true) } + [("", false)]
        if let changed {
            lines += wrap("This may be an attack: someone between you and \(changed.server), showing their own certificate.")
            lines += [("", false), ("Trusted before:", false)] + Self.fingerprintLines(changed.trusted).map { ($0, false) }
            lines += [("Presented now:", false)] + Self.fingerprintLines(changed.presented).map { ($0, true) }
            lines += [("", false)]
            lines += wrap(
                "If your instructor renewed it, compare the one presented now with the fingerprint snapshare-server "
                    + "printed at its start (\"clients without --ca pin it\"). Only if they match, press t to trust it "
                    + "(the same as `snapshare trust \(changed.server) FINGERPRINT` in another terminal).")
        } else {
            lines += wrap(
                "The server's certificate cannot be trusted, so nothing was sent. Tell your instructor what it says "
                    + "above; when they have fixed it, press r here.")
        }
        lines += [("", false), (keys.help.map { "\($0.keys)  \($0.meaning)" }.joined(separator: "        "), false)]
        let top = max(area.y + 2, area.y + (area.height - lines.count) / 2)
        for (index, (line, bold)) in lines.enumerated() where top + index < area.y + area.height {
            grid.write(line, column: area.x + 2, row: top + index, style: Style(bold: bold), width: width)
        }
    }

    // MARK: Trusted on first use

    /// A server trusted on first use: its fingerprint, to compare with the one the instructor's
    /// server printed. Shown at once, or after the box or dialog open now.
    func announce(_ notice: SessionNotice) {
        app.show(.text(title: "Server trusted on first use", lines: Self.lines(of: notice)))
    }

    /// A first-use notice for a box: the fingerprint in two halves, so it fits an 80-column window whole.
    static func lines(of notice: SessionNotice) -> [String] {
        switch notice {
        case .trustedOnFirstUse(let server, let hex, let isAuthority):
            return [
                "Trusting \(server) on first use. SHA-256 fingerprint of its "
                    + (isAuthority ? "certificate authority:" : "certificate:")
            ]
                + fingerprintLines(hex)
                + [
                    "",
                    "Compare it with the one snapshare-server printed at its start (\"clients without --ca pin it\"). "
                        + "A certificate from " + (isAuthority ? "another authority" : "another key") + " will be refused.",
                ]
        }
    }

    /// A fingerprint kept as hex, as two indented halves in colon form: the whole of it fits an
    /// 80-column window.
    static func fingerprintLines(_ hex: String) -> [String] {
        let pairs = DevCertificateAuthority.formatFingerprint(hex: hex).split(separator: ":")
        let half = (pairs.count + 1) / 2
        return ["  " + pairs.prefix(half).joined(separator: ":") + ":", "  " + pairs.dropFirst(half).joined(separator: ":")]
    }
}
