import Foundation
import TLS
import TestSupport
import Testing

/// The app's first start from an empty state folder, and a server whose certificate changed,
/// with the real `snapshare` in tmux against real servers.
@Suite("The app's first start and certificates", .serialized, .enabled(if: TmuxPane.isAvailable, "tmux is not installed"))
struct AppTrustTmuxTests {
    static func app(home: TemporaryDirectory, arguments: [String] = []) throws -> TmuxPane {
        let command = ([Subprocess.executable("snapshare")] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try TmuxPane(
            command, columns: 100, rows: 30,
            environment: ["SNAPSHARE_HOME": home.path, "TERM": "xterm-256color", "LANG": "C.UTF-8"])
    }

    @Test("bare snapshare with nothing saved opens the login form at once, the server field first; registering there works")
    func firstStart() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("snapshare-first-start")
        let pane = try Self.app(home: home)
        var screen = try pane.wait { $0.contains("Welcome to Snapshare") }
        #expect(screen.contains("localhost:7443"), "the default server is offered: \(screen)")
        #expect(!screen.contains("cannot connect"), "nothing is tried before the form is filled in: \(screen)")
        // The server field has the focus: Ctrl-U empties it and typing replaces it.
        try pane.send("C-u")
        try pane.fill("localhost:\(server.port)", "newbie", "first password", server.configuration.classCode ?? "")
        try pane.send("C-r")
        // No CA was given: the class CA is pinned, and the app says which fingerprint.
        screen = try pane.wait { $0.contains("Server trusted on first use") }
        let authority = try DevCertificateAuthority.fingerprint(certificatePEMFile: server.caPath)
        let pairs = DevCertificateAuthority.formatFingerprint(authority).split(separator: ":")
        #expect(
            screen.contains("  " + pairs.prefix(16).joined(separator: ":") + ":")
                && screen.contains("  " + pairs.dropFirst(16).joined(separator: ":")),
            "the whole fingerprint, in two halves: \(screen)")
        try pane.send("Enter")
        screen = try pane.wait { $0.contains("Pick a picture") }
        #expect(screen.contains("Signed in as newbie"), "\(screen)")
        try pane.send("q")
        // The next start needs nothing: the server, the pin and the session were saved.
        let config = try String(contentsOfFile: home.file("config.json"), encoding: .utf8)
        #expect(config.contains("localhost:\(server.port)"))
        let again = try Self.app(home: home)
        screen = try again.wait { $0.contains("Signed in as newbie") }
        #expect(!screen.contains("Welcome to Snapshare"))
        try again.send("q")
    }

    /// The class CA's fingerprint as the app shows it: two indented halves.
    static func fingerprintHalves(_ server: TestServer) throws -> [String] {
        let pairs = DevCertificateAuthority.formatFingerprint(try DevCertificateAuthority.fingerprint(certificatePEMFile: server.caPath))
            .split(separator: ":")
        return ["  " + pairs.prefix(16).joined(separator: ":") + ":", "  " + pairs.dropFirst(16).joined(separator: ":")]
    }

    @Test(
        """
        a server is never pinned unseen: a saved login resumed under another name of the server, \
        and a first login that fails, show the fingerprint pinned
        """
    )
    func firstUseIsAlwaysShown() throws {
        let server = try TestServer()
        let halves = try Self.fingerprintHalves(server)
        // Registered with the command, which pinned 127.0.0.1 and said so. The app started for
        // localhost finds that login by the certificate, and pins the CA for this name of the server.
        let home = TemporaryDirectory("snapshare-app-other-name")
        let registered = try Subprocess.run(
            "snapshare", ["register", "pinner", "--password-stdin", "--class-code", server.configuration.classCode ?? ""],
            environment: ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": "127.0.0.1:\(server.port)"],
            stdin: "pinner password\n")
        #expect(registered.status == 0 && registered.stderr.contains("Compare it with"), "\(registered.stderr)")
        let pane = try Self.app(home: home, arguments: ["--server", "localhost:\(server.port)"])
        var screen = try pane.wait { $0.contains("Server trusted on first use") && $0.contains("Signed in as pinner") }
        #expect(halves.allSatisfy(screen.contains), "the whole fingerprint, in two halves: \(screen)")
        try pane.send("Enter")
        screen = try pane.wait { !$0.contains("trusted on first use") }
        #expect(screen.contains("Pick a picture"), "\(screen)")
        try pane.send("q")

        // A first login with a wrong password pins the server all the same: it is said then, or never.
        let other = TemporaryDirectory("snapshare-app-wrong-password")
        let form = try Self.app(home: other, arguments: ["--server", "127.0.0.1:\(server.port)"])
        try form.wait { $0.contains("Welcome to Snapshare") }
        try form.fill("pinner", "not the password")
        try form.send("Enter")
        screen = try form.wait { $0.contains("Server trusted on first use") }
        #expect(halves.allSatisfy(screen.contains), "\(screen)")
        try form.send("Escape")
        screen = try form.wait { !$0.contains("trusted on first use") }
        #expect(screen.contains("Welcome to Snapshare"), "still on the form, the login refused: \(screen)")
        try form.send("C-c")
    }

    @Test("a pinned certificate that changed gets one screen with the fix, no retry loop; after the fix r carries on")
    func changedCertificateScreen() throws {
        let directory = TemporaryDirectory("snapshare-app-pin")
        let port = ServerProcess.freePort()
        var process: ServerProcess? = try ServerProcess(
            dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port)
        let home = TemporaryDirectory("snapshare-app-pin-home")
        let environment = ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": "localhost:\(port)"]
        let registered = try Subprocess.run(
            "snapshare", ["register", "watcher", "--password-stdin"], environment: environment,
            stdin: "watcher password\n")
        #expect(registered.status == 0, "\(registered.stderr)")
        let pane = try Self.app(home: home)
        try pane.wait { $0.contains("Signed in as watcher") }
        try pane.send("2")
        try pane.wait { $0.contains("Memes (0)") }

        // The server comes back with a certificate from another CA.
        process?.stop()
        process = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: directory.file("other-certs"), port: port)
        let presented = DevCertificateAuthority.formatFingerprint(
            try DevCertificateAuthority.fingerprint(certificatePEMFile: directory.file("other-certs") + "/ca.pem"))
        var screen = try pane.wait { $0.contains("has CHANGED") }
        #expect(screen.contains("snapshare trust localhost:\(port)"), "the whole fix is on screen: \(screen)")
        #expect(screen.contains("r  try again"), "\(screen)")
        #expect(!screen.contains("reconnecting"), "\(screen)")
        // It stays put: the screen does not turn into reconnecting… while nobody acts. What must
        // not happen has no event: a window past the app's 2 s quiet check, which would retry.
        Thread.sleep(forTimeInterval: 3)
        screen = try pane.capture()
        #expect(screen.contains("has CHANGED") && !screen.contains("reconnecting"), "\(screen)")

        // The fix, in another terminal, then r.
        let trusted = try Subprocess.run("snapshare", ["trust", "localhost:\(port)", presented], environment: environment)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        try pane.send("r")
        screen = try pane.wait { $0.contains("Memes (0)") && !$0.contains("has CHANGED") }
        #expect(screen.contains("watcher"), "\(screen)")
        try pane.send("q")
        process?.stop()
    }
}
