import Foundation
import TLS
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The generated server certificate renews itself from the class CA at a start or a reload when
/// it nears its end (or is gone), and the log says so with the new end date: the real server.
@Suite("The generated certificate's renewal is logged")
struct CertificateRenewalTests {
    static func day(_ date: Date?) -> String {
        guard let date else { return "(no date)" }
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyy-MM-dd"
        return format.string(from: date)
    }

    @Test("a leaf within 30 days of its end is reissued at start, and one removed at a reload; each time the log gives the new end date")
    func reissuedLeavesAreLogged() throws {
        let directory = TemporaryDirectory("snapshare-renewal")
        let certs = directory.file("certs")
        // A class CA and leaf made 810 days ago: the leaf (825 days) has 15 days left.
        let old = try DevCertificateAuthority.ensure(directory: certs, hosts: ["localhost", "127.0.0.1"], now: Date() - 810 * 86_400)
        let oldEnd = try CertificateChainFile(path: old.serverChainPath).leafNotAfter
        let server = try ServerProcess(
            dataDirectory: directory.file("data"), certsDirectory: certs, port: ServerProcess.freePort(),
            logLevel: "info", mergingStandardError: true)
        defer { server.killHard() }
        let newEnd = try CertificateChainFile(path: old.serverChainPath).leafNotAfter
        #expect(try CertificateChainFile(path: old.serverChainPath).anchorSHA256 == old.caFingerprint, "the same CA issued it")
        let line = try #require(server.startLines.first { $0.contains("reissued the server certificate") }, "\(server.startLines)")
        #expect(
            line.contains("ends on \(Self.day(oldEnd))") && line.contains("within 30 days")
                && line.contains("valid until \(Self.day(newEnd))"),
            "\(line)")

        try FileManager.default.removeItem(atPath: old.serverCertificatePath)
        server.send(SIGHUP)
        let reloaded = try #require(server.lines.first { $0.contains("reissued the server certificate") }, "a line after the reload")
        let reissuedEnd = try CertificateChainFile(path: old.serverChainPath).leafNotAfter
        #expect(reloaded.contains("valid until \(Self.day(reissuedEnd))"), "\(reloaded)")
    }
}
