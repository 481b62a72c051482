import Foundation
import TLS
import TestSupport
import Testing

/// How `snapshare` without `--ca` trusts a server, against real server processes: the system's
/// roots first, else the chain's CA pinned on first use, so a renewal by the same CA passes and
/// a certificate from another CA is refused once, with the command that trusts it.
@Suite("Certificate trust without --ca", .serialized)
struct CertificateTrustTests {
    /// A student's state folder talking to `localhost:port` with no CA file.
    struct Student {
        let home = TemporaryDirectory("snapshare-trust-home")
        let port: Int
        var extra: [String: String] = [:]
        var environment: [String: String] {
            ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": "localhost:\(port)"].merging(extra) { $1 }
        }
        func run(_ arguments: [String], stdin: String? = nil) throws -> Subprocess.Result {
            try Subprocess.run("snapshare", arguments, environment: environment, stdin: stdin)
        }
        var knownServers: String { (try? String(contentsOfFile: home.file("known_servers"), encoding: .utf8)) ?? "" }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test("the class CA is pinned on first use; a leaf it renews is accepted; another CA is refused once, and the named command fixes it")
    func pinTheAuthority() throws {
        let directory = TemporaryDirectory("snapshare-pin")
        let port = ServerProcess.freePort()
        let certs = directory.file("certs")
        var process: ServerProcess? = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: certs, port: port)
        let student = Student(port: port)
        let first = try student.run(["register", "pat", "--password-stdin"], stdin: "pat password\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("first use") && first.stderr.contains("certificate authority"), "\(first.stderr)")
        let authority = try DevCertificateAuthority.fingerprint(certificatePEMFile: certs + "/ca.pem")
        #expect(student.knownServers == "localhost:\(port) \(Self.hex(authority))\n")

        // Renewal: the same CA issues a new leaf (as when the old one nears its end).
        process?.stop()
        let oldLeaf = try DevCertificateAuthority.fingerprint(certificatePEMFile: certs + "/server.pem")
        try FileManager.default.removeItem(atPath: certs + "/server.pem")
        process = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: certs, port: port)
        #expect(try DevCertificateAuthority.fingerprint(certificatePEMFile: certs + "/server.pem") != oldLeaf)
        let renewed = try student.run(["whoami"])
        #expect(renewed.status == 0 && renewed.stdout.hasPrefix("pat"), "\(renewed.stderr)")
        #expect(renewed.stderr.isEmpty, "\(renewed.stderr)")
        #expect(student.knownServers == "localhost:\(port) \(Self.hex(authority))\n")

        // Another CA altogether: refused with one message naming both fingerprints and the fix.
        process?.stop()
        process = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: directory.file("other-certs"), port: port)
        let stranger = try DevCertificateAuthority.fingerprint(certificatePEMFile: directory.file("other-certs") + "/ca.pem")
        let changed = try student.run(["whoami"])
        #expect(changed.status == 3)
        #expect(changed.stderr.hasPrefix("snapshare: the certificate of localhost:\(port) has CHANGED"), "\(changed.stderr)")
        #expect(changed.stderr.contains(DevCertificateAuthority.formatFingerprint(authority)))
        let fix = try #require(changed.stderr.split(separator: "\n").first { $0.hasPrefix("  snapshare trust ") }, "\(changed.stderr)")
        #expect(fix == "  snapshare trust localhost:\(port) \(DevCertificateAuthority.formatFingerprint(stranger))")
        #expect(student.knownServers.contains(Self.hex(authority)), "nothing is re-trusted by itself")

        // A wrong fingerprint is refused; the one named is pinned, and the session carries on.
        let typo = try student.run(["trust", "localhost:\(port)", Self.hex(authority)])
        #expect(typo.status == 3 && typo.stderr.contains("nothing was trusted"), "\(typo.stderr)")
        let words = fix.split(separator: " ").map(String.init)
        let trusted = try student.run(Array(words.dropFirst()))
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout.contains("Trusting localhost:\(port)"))
        let after = try student.run(["whoami"])
        #expect(after.status == 0 && after.stdout.hasPrefix("pat"), "\(after.stderr)")
        process?.stop()
    }

    @Test("a server the system trusts is never pinned")
    func systemTrustedIsNotPinned() throws {
        let directory = TemporaryDirectory("snapshare-system")
        let port = ServerProcess.freePort()
        let process = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: port)
        defer { process.stop() }
        // OpenSSL's default store, pointed at the class CA as if the machine's administrator had installed it.
        var student = Student(port: port)
        student.extra = ["SSL_CERT_FILE": directory.file("certs") + "/ca.pem"]
        let registered = try student.run(["register", "sam", "--password-stdin"], stdin: "sam password\n")
        #expect(registered.status == 0, "\(registered.stderr)")
        #expect(!registered.stderr.contains("first use"), "\(registered.stderr)")
        #expect(student.knownServers.isEmpty)
        let trust = try student.run(["trust", "localhost:\(port)", String(repeating: "ab", count: 32), "--json"])
        #expect(trust.status == 0 && trust.stdout.contains("\"trusted_by_system\":true"), "\(trust.stdout)\(trust.stderr)")
        #expect(student.knownServers.isEmpty)
    }

    @Test("a leaf pinned by an older snapshare moves to its CA without a word")
    func olderLeafPinMoves() throws {
        let directory = TemporaryDirectory("snapshare-legacy-pin")
        let port = ServerProcess.freePort()
        let certs = directory.file("certs")
        let process = try ServerProcess(dataDirectory: directory.file("data"), certsDirectory: certs, port: port)
        defer { process.stop() }
        let student = Student(port: port)
        #expect(try student.run(["register", "lou", "--password-stdin"], stdin: "lou password\n").status == 0)
        let leaf = try DevCertificateAuthority.fingerprint(certificatePEMFile: certs + "/server.pem")
        try "localhost:\(port) \(Self.hex(leaf))\n".write(toFile: student.home.file("known_servers"), atomically: true, encoding: .utf8)
        let again = try student.run(["whoami"])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        let authority = try DevCertificateAuthority.fingerprint(certificatePEMFile: certs + "/ca.pem")
        #expect(student.knownServers == "localhost:\(port) \(Self.hex(authority))\n")
    }
}
