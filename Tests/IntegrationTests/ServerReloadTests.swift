import Client
import Foundation
import TLS
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The server as a service runs it for a semester, against real server processes: SIGHUP
/// renews the certificate under connected clients and re-reads the config file, a broken file
/// keeps what was served, and systemd hears each step on `$NOTIFY_SOCKET`.
@Suite("Reload on SIGHUP", .serialized)
struct ServerReloadTests {
    /// Certificate files as an operator's tool (certbot, a school CA) keeps them: a chain and a
    /// key, renewed in place by the same CA.
    struct IssuedFiles {
        let directory: String
        var chain: String { directory + "/fullchain.pem" }
        var key: String { directory + "/server.key" }
        var arguments: [String] { ["--tls-cert", chain, "--tls-key", key] }

        init(_ directory: String) throws {
            self.directory = directory
            _ = try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost", "127.0.0.1"])
        }

        /// A new leaf from the same CA, written over the served files.
        func renew() throws {
            try FileManager.default.removeItem(atPath: directory + "/server.pem")
            _ = try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost", "127.0.0.1"])
        }

        var leafFingerprint: String {
            get throws {
                DevCertificateAuthority.formatFingerprint(
                    try DevCertificateAuthority.fingerprint(certificatePEMFile: directory + "/server.pem"))
            }
        }
    }

    /// The SHA-256 fingerprint of the leaf a new handshake with `port` gets, as `openssl s_client` sees it.
    static func presentedLeaf(port: Int) throws -> String {
        let result = try Subprocess.runTool(
            "/bin/sh",
            [
                "-c",
                "openssl s_client -connect 127.0.0.1:\(port) -servername localhost </dev/null 2>/dev/null "
                    + "| openssl x509 -noout -fingerprint -sha256",
            ])
        return result.stdout.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
    }

    /// The sockets process `pid` holds (their inode numbers): a reconnect would change them.
    static func sockets(of pid: Int32) -> Set<String> {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(
            names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0) }.filter {
                $0.hasPrefix("socket:")
            })
    }

    @Test("a renewed certificate is served after SIGHUP while a feed --watch client stays connected on the old one")
    func renewedCertificateUnderAWatchingClient() throws {
        let directory = TemporaryDirectory("snapshare-reload")
        let issued = try IssuedFiles(directory.file("issued"))
        let server = try ServerProcess.logging(in: directory, arguments: issued.arguments)
        let port = server.port
        defer { server.killHard() }
        let oldLeaf = try issued.leafFingerprint
        let printed = server.lines.first { $0.contains("leaf certificate SHA-256:") }
        #expect(printed?.hasSuffix("leaf certificate SHA-256: \(oldLeaf)") == true, "the fingerprint at start: \(printed ?? "none")")

        let ann = CertificateTrustTests.Student(port: port)
        #expect(try ann.run(["register", "ann", "--password-stdin"], stdin: "ann password\n").status == 0)
        let bob = CertificateTrustTests.Student(port: port)
        #expect(try bob.run(["register", "bob", "--password-stdin"], stdin: "bob password\n").status == 0)
        let watch = try Subprocess.start("snapshare", ["feed", "--watch", "--json", "--interval", "0.2"], environment: ann.environment)
        defer { watch.kill() }
        #expect(watch.lines.next() == "[]", "the empty feed first")
        let socketsBefore = Self.sockets(of: watch.process.processIdentifier)
        #expect(!socketsBefore.isEmpty)

        try issued.renew()
        let newLeaf = try issued.leafFingerprint
        #expect(newLeaf != oldLeaf)
        server.send(SIGHUP)
        let reloaded = server.lines.first { $0.contains("reload: serving the certificate") }
        #expect(reloaded?.contains("leaf certificate SHA-256: \(newLeaf)") == true, "\(reloaded ?? "no reload line")")
        #expect(server.lines.first { $0.contains("reload done") } != nil)
        #expect(try Self.presentedLeaf(port: port) == newLeaf, "new handshakes get the renewed leaf")

        // Bob connects anew: the CA he pinned issued the renewed leaf, so nothing to confirm.
        let posted = try bob.run(["post", "--feed", "Memes", "--sample", "3"])
        #expect(posted.status == 0 && !posted.stderr.contains("CHANGED"), "\(posted.stderr)")
        let listing = try #require(watch.lines.next(), "ann's watch sees bob's snap")
        #expect(listing.contains("\"poster\":\"bob\""), "\(listing)")
        #expect(Self.sockets(of: watch.process.processIdentifier) == socketsBefore, "the watch kept its connection")
        #expect(server.process.isRunning)
    }

    @Test("a broken certificate or a key that does not match at reload keeps the one served, and says why")
    func brokenCertificateKeepsTheOldOne() throws {
        let directory = TemporaryDirectory("snapshare-reload-broken")
        let issued = try IssuedFiles(directory.file("issued"))
        let server = try ServerProcess.logging(in: directory, arguments: issued.arguments)
        let port = server.port
        defer { server.killHard() }
        let served = try issued.leafFingerprint
        let goodChain = try String(contentsOfFile: issued.chain, encoding: .utf8)

        try "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".write(
            toFile: issued.chain, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        var refused = server.lines.first { $0.contains("reload: the certificate could not be used") }
        #expect(refused?.contains("still serving the previous one (SHA-256 \(served))") == true, "\(refused ?? "no line")")
        #expect(refused?.contains("ERROR") == true)
        #expect(try Self.presentedLeaf(port: port) == served)

        // The chain back, but the key of another certificate.
        try goodChain.write(toFile: issued.chain, atomically: true, encoding: .utf8)
        let other = try IssuedFiles(directory.file("other"))
        try FileManager.default.removeItem(atPath: issued.key)
        try FileManager.default.copyItem(atPath: other.key, toPath: issued.key)
        server.send(SIGHUP)
        refused = server.lines.first { $0.contains("reload: the certificate could not be used") }
        #expect(refused?.contains("still serving the previous one") == true, "\(refused ?? "no line")")
        #expect(try Self.presentedLeaf(port: port) == served)
        #expect(server.process.isRunning, "SIGHUP never ends the server")

        let student = CertificateTrustTests.Student(port: port)
        #expect(try student.run(["register", "cyd", "--password-stdin"], stdin: "cyd password\n").status == 0, "still serving")
    }

    @Test("SIGHUP re-reads the config file: the class code applies at once, a restart-only setting is named, a broken file changes nothing")
    func configReload() throws {
        let directory = TemporaryDirectory("snapshare-reload-config")
        let config = try directory.write("# the class's server\nsnap-ttl = 2d\n", to: "server.conf")
        let server = try ServerProcess.logging(in: directory, arguments: ["--config", config])
        let port = server.port
        defer { server.killHard() }
        let student = CertificateTrustTests.Student(port: port)
        #expect(try student.run(["register", "ann", "--password-stdin"], stdin: "ann password\n").status == 0, "no class code yet")

        try "snap-ttl = 1d\nclass-code = owls\nmax-connections = 50\n".write(toFile: config, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        let applied = server.lines.first { $0.contains("in effect now") }
        #expect(applied?.contains("--class-code, --snap-ttl") == true, "\(applied ?? "no line")")
        let waiting = server.lines.first { $0.contains("takes effect only at a restart") }
        #expect(waiting?.contains("--max-connections changed") == true, "\(waiting ?? "no line")")
        let refused = try CertificateTrustTests.Student(port: port).run(["register", "bea", "--password-stdin"], stdin: "bea password\n")
        #expect(refused.status != 0 && refused.stderr.contains("class code"), "\(refused.stderr)")

        try "snap-ttl = forever\n".write(toFile: config, atomically: true, encoding: .utf8)
        server.send(SIGHUP)
        let broken = server.lines.first { $0.contains("nothing changed") }
        #expect(broken?.contains("server.conf:1:") == true, "\(broken ?? "no line")")
        let stillCoded = try CertificateTrustTests.Student(port: port).run(
            ["register", "cyd", "--password-stdin"], stdin: "cyd password\n")
        #expect(stillCoded.status != 0, "the class code of the last good reload still applies")
        #expect(server.process.isRunning)
    }

    @Test("systemd hears READY at start, RELOADING then READY at SIGHUP, STOPPING at SIGTERM; the exit is 0")
    func serviceNotifications() throws {
        let directory = TemporaryDirectory("snapshare-notify")
        let notify = try NotifySocket(path: directory.file("notify"))
        let port = ServerProcess.freePort()
        let server = try ServerProcess(
            dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port,
            environment: ["NOTIFY_SOCKET": notify.path])
        defer { server.killHard() }
        let ready = try #require(notify.next(), "READY after start")
        #expect(ready.contains("READY=1") && ready.contains { $0.hasPrefix("STATUS=serving on 127.0.0.1:\(port)") }, "\(ready)")
        server.send(SIGHUP)
        let reloading = try #require(notify.next())
        #expect(reloading.contains("RELOADING=1") && reloading.contains { $0.hasPrefix("MONOTONIC_USEC=") }, "\(reloading)")
        #expect(try #require(notify.next()).contains("READY=1"), "READY again once reloaded")
        server.send(SIGTERM)
        #expect(try #require(notify.next()).contains("STOPPING=1"))
        #expect(server.exitStatus(within: 15) == 0)
    }

    @Test("a generated certificate names the address the server listens on, so students can connect by that IP")
    func listenAddressInTheCertificate() throws {
        let directory = TemporaryDirectory("snapshare-listen-ip")
        let port = ServerProcess.freePort()
        let server = try ServerProcess(
            dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port,
            host: "127.0.0.2")
        defer { server.killHard() }
        let home = TemporaryDirectory("snapshare-listen-home")
        let result = try Subprocess.run(
            "snapshare",
            [
                "--server", "127.0.0.2:\(port)", "--ca", directory.file("certs/ca.pem"),
                "register", "ipuser", "--password-stdin",
            ],
            environment: ["SNAPSHARE_HOME": home.path], stdin: "ip password\n")
        #expect(result.status == 0, "\(result.stderr)")
    }
}
