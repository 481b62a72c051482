import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `snapshare-server --config FILE`, as an instructor writes one: every mistake stops the start
/// with the file and line, options on the command line win, and secrets others can read are
/// pointed out.
@Suite("Server config file")
struct ServerConfigFileTests {
    /// Runs the server with a config file holding `text`; for files the start must refuse.
    private func start(with text: String, mode: mode_t = 0o600, extra: [String] = []) throws -> (Subprocess.Result, String) {
        let directory = TemporaryDirectory("snapshare-config")
        let path = try directory.write(text, to: "snapshare.conf", mode: Int(mode))
        let result = try Subprocess.run(
            "snapshare-server",
            [
                "--config", path, "--data", directory.file("data"),
                "--certs", directory.file("certs"),
            ] + extra, timeout: 30)
        return (result, path)
    }

    @Test("an unknown name, a bad value, a line that is no setting, and a setting given twice each stop the start with FILE:LINE")
    func mistakesNameTheLine() throws {
        var (result, path) = try start(with: "# comment\n\nsnap-tl = 3d\n")
        #expect(result.status == 2)
        #expect(
            result.stderr.hasPrefix("snapshare-server: \(path):3: unknown setting 'snap-tl'; did you mean 'snap-ttl'?"), "\(result.stderr)")

        (result, path) = try start(with: "listen = 127.0.0.1:0\nsnap-ttl = 0s\n")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("snapshare-server: \(path):2: --snap-ttl must be at least 1s"), "\(result.stderr)")

        (result, path) = try start(with: "max-connections = lots\n")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("snapshare-server: \(path):1: invalid value 'lots' for --max-connections"), "\(result.stderr)")

        (result, path) = try start(with: "log-level = loud\n")
        #expect(result.stderr.hasPrefix("snapshare-server: \(path):1: --log-level is debug, info, warning or error"), "\(result.stderr)")

        (result, path) = try start(with: "listen 127.0.0.1:7443\n")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("snapshare-server: \(path):1: expected 'name = value'"), "\(result.stderr)")

        (result, path) = try start(with: "snap-ttl = 1d\nclass-code = a\nsnap-ttl = 2d\n")
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("snapshare-server: \(path):3: snap-ttl is set twice (first on line 1)"), "\(result.stderr)")

        (result, path) = try start(with: "config = other.conf\n")
        #expect(result.stderr.contains(":1: unknown setting 'config'"), "a config file does not name another: \(result.stderr)")

        let missing = try Subprocess.run("snapshare-server", ["--config", "/nonexistent/snapshare.conf"])
        #expect(missing.status == 2)
        #expect(
            missing.stderr.hasPrefix(
                "snapshare-server: cannot read the config file /nonexistent/snapshare.conf: No such file or directory"),
            "\(missing.stderr)")
    }

    @Test("the command line wins over the file; a class code in a file others can read is pointed out")
    func commandLineWinsAndSecretsAreGuarded() throws {
        let directory = TemporaryDirectory("snapshare-config-run")
        let path = try directory.write("listen = 127.0.0.1:1\nclass-code = owls\nphotos = builtin\n", to: "snapshare.conf", mode: 0o644)
        let server = try ServerProcess.logging(in: directory, arguments: ["--config", path])
        let port = server.port
        defer { server.killHard() }
        #expect(
            server.startLines.contains { $0.contains("listening on 127.0.0.1:\(port)") }, "--listen beats listen = : \(server.startLines)")
        #expect(server.lines.first { $0.contains("registration requires the class code") } != nil)
        #expect(
            server.startLines.contains {
                $0.contains("\(path) holds class-code and other users of this machine can read it; run: chmod 600 \(path)")
            },
            "\(server.startLines)")

        // These two stop at their bad max-connections, after what they warn about.
        let quiet = try start(with: "class-code = owls\nmax-connections = 0\n", mode: 0o600)
        #expect(quiet.0.status == 2 && !quiet.0.stderr.contains("chmod"), "a 0600 file draws no warning: \(quiet.0.stderr)")
        let typed = try start(with: "max-connections = 0\n", extra: ["--class-code", "owls"])
        #expect(
            typed.0.stderr.contains("--class-code on the command line is visible to every user of this machine (ps)"), "\(typed.0.stderr)")
    }

    @Test("every server option has a config name, and --help says how the file is written")
    func everyOptionHasAName() throws {
        let help = try Subprocess.run("snapshare-server", ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--config FILE"))
        #expect(help.stdout.contains("'name = value'"))
        // Each option's name without dashes is accepted in a file (values here are valid ones).
        let directory = TemporaryDirectory("snapshare-config-all")
        let settings = """
            listen = 127.0.0.1:0
            data = \(directory.file("data"))
            certs = \(directory.file("certs"))
            cert-host = class.example
            class-code = owls
            snap-ttl = 3d
            max-image-bytes = 2000000
            max-image-dimension = 4000
            max-image-pixels = 9000000
            max-connections = 500
            max-connections-per-address = 200
            max-anonymous-per-address = 30
            max-connections-per-user = 8
            login-timeout = 20s
            max-in-flight = 32
            protocol-versions = 1-2
            max-connection-buffer = 8388608
            max-frame-before-login = 8192
            handshake-timeout = 5s
            idle-timeout = 10m
            frame-timeout = 30s
            drain-timeout = 5s
            backup-dir = \(directory.file("backups"))
            backup-every = 12h
            backup-keep = 10
            quota-posts-per-hour = 30
            moderation = queue
            registration = roster
            quota-bytes = 104857600
            log-level = warning
            log-format = json
            metrics = 127.0.0.1:0
            photos = builtin
            photo-radius = 3
            """
        // Whatever --help lists is in the file above, or needs something this test has not got.
        let needsMore: Set<String> = ["config", "database", "tls-cert", "tls-key", "flickr-key", "flickr-endpoint", "help", "version"]
        let listed = help.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard let first = words.first, first.hasPrefix("--") else { return nil }
            return String(first.dropFirst(2))
        }
        let named = Set(settings.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(listed.count > 20)
        #expect(listed.filter { !named.contains($0) && !needsMore.contains($0) }.isEmpty, "options missing from the file: \(listed)")
        let path = try directory.write(settings, to: "all.conf")
        let server = try Subprocess.start("snapshare-server", ["--config", path], mergingStandardError: true)
        defer { server.kill() }
        let line = server.lines.first { $0.contains("listening on") || $0.contains("snapshare-server:") }
        #expect(line?.contains("listening on 127.0.0.1:") == true, "\(line ?? "nothing")")
    }
}
