import COpenSSL
import Foundation
import Testing

@testable import TLS

@Suite("Development certificate authority")
struct DevCertificateAuthorityTests {
    private static let hosts = ["localhost", "127.0.0.1", "::1", "snapshare-lab"]

    private static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    private static func contents(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    @Test("ensure creates the CA and server files with private modes for the keys")
    func ensureCreatesFilesWithModes() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let set = try DevCertificateAuthority.ensure(directory: "\(directory)/certs", hosts: Self.hosts)
            #expect(set.created)
            #expect(set.caCertificatePath == "\(directory)/certs/ca.pem")
            #expect(set.caKeyPath == "\(directory)/certs/private/ca.key")
            #expect(set.serverCertificatePath == "\(directory)/certs/server.pem")
            #expect(set.serverChainPath == "\(directory)/certs/fullchain.pem")
            #expect(set.serverKeyPath == "\(directory)/certs/server.key")
            #expect(
                try Self.contents(set.serverChainPath) == Self.contents(set.serverCertificatePath) + Self.contents(set.caCertificatePath))
            #expect(try Self.mode(set.serverKeyPath) == 0o600)
            #expect(try Self.mode(set.caKeyPath) == 0o600)
            #expect(try Self.mode("\(directory)/certs/private") == 0o700)
            #expect(try Self.mode(set.caCertificatePath) & 0o022 == 0)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: "\(directory)/certs")
            #expect(Set(leftovers) == ["ca.pem", "server.pem", "fullchain.pem", "server.key", "private"])
        }
    }

    @Test("a second ensure reuses every file and reports the same fingerprint")
    func ensureIsIdempotent() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            let before = try [
                first.caCertificatePath, first.caKeyPath, first.serverCertificatePath, first.serverChainPath,
                first.serverKeyPath,
            ]
            .map(Self.contents)
            let second = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            #expect(!second.created)
            #expect(second.fingerprint == first.fingerprint)
            let after = try [
                second.caCertificatePath, second.caKeyPath, second.serverCertificatePath, second.serverChainPath,
                second.serverKeyPath,
            ]
            .map(Self.contents)
            #expect(after == before)
        }
    }

    @Test("a directory from before chains were served gets its fullchain.pem, the rest reused")
    func missingChainIsWritten() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            try FileManager.default.removeItem(atPath: first.serverChainPath)
            let second = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            #expect(second.fingerprint == first.fingerprint)
            #expect(
                try Self.contents(second.serverChainPath) == Self.contents(second.serverCertificatePath)
                    + Self.contents(second.caCertificatePath))
        }
    }

    @Test("a loose private directory is tightened back to 0700")
    func privateDirectoryModeIsRestored() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            _ = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: "\(directory)/private")
            _ = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            #expect(try Self.mode("\(directory)/private") == 0o700)
        }
    }

    @Test("a missing server certificate is reissued from the existing CA")
    func missingLeafIsReissuedFromTheSameCA() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            let authority = try Self.contents(first.caCertificatePath)
            try FileManager.default.removeItem(atPath: first.serverCertificatePath)

            let second = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            #expect(second.created)
            #expect(second.fingerprint != first.fingerprint)
            #expect(try Self.contents(second.caCertificatePath) == authority)

            let server = try TLSTestHarness.server(second)
            let client = try TLSTestHarness.client(trustRootsFile: second.caCertificatePath)
            try TLSTestHarness.connect(client: client, server: server)
        }
    }

    @Test("a new host name gets a new server certificate from the same CA")
    func newHostIsAddedByReissuing() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost"])
            let authority = try Self.contents(first.caCertificatePath)
            let second = try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost", "10.0.0.5"])
            #expect(second.created)
            #expect(try Self.contents(second.caCertificatePath) == authority)

            let server = try TLSTestHarness.server(second)
            let client = try TLSTestHarness.client(serverName: "10.0.0.5", trustRootsFile: second.caCertificatePath)
            try TLSTestHarness.connect(client: client, server: server)
        }
    }

    @Test("a server certificate near its end is renewed, the CA is kept")
    func expiringLeafIsRenewed() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let now = Date()
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts, now: now)
            let authority = try Self.contents(first.caCertificatePath)
            let later = now + 810 * 86_400
            let renewed = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts, now: later)
            #expect(renewed.created)
            #expect(renewed.fingerprint != first.fingerprint)
            #expect(try Self.contents(renewed.caCertificatePath) == authority)
            let leaf = try #require(try X509Certificate.load(pemFile: renewed.serverCertificatePath))
            #expect(leaf.isValid(at: later, margin: 800 * 86_400))
        }
    }

    @Test("ensure says why it issued a server certificate, and until when the new one is valid")
    func issuedLeavesSayWhy() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let now = Date()
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost"], now: now)
            #expect(first.issued == .first)
            let end = try #require(first.leafNotAfter)
            #expect(abs(end.timeIntervalSince(now) - Double(DevCertificateAuthority.serverValidityDays) * 86_400 + 3_600) < 5)
            #expect(try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost"], now: now).issued == nil, "reused")
            let named = try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost", "10.0.0.5"], now: now)
            #expect(named.issued == .newNames(["10.0.0.5"]))
            let later = now + 810 * 86_400
            let renewed = try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost", "10.0.0.5"], now: later)
            #expect(renewed.issued == .expiring(previousEnd: try #require(named.leafNotAfter)))
            try FileManager.default.removeItem(atPath: renewed.serverCertificatePath)
            #expect(
                try DevCertificateAuthority.ensure(directory: directory, hosts: ["localhost", "10.0.0.5"], now: later).issued
                    == .missingOrUnusable)
        }
    }

    @Test("without the CA key a valid server certificate is still reused")
    func missingCAKeyStillReusesAValidLeaf() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            try FileManager.default.removeItem(atPath: first.caKeyPath)
            let second = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            #expect(!second.created)
            #expect(second.fingerprint == first.fingerprint)
        }
    }

    @Test("without the CA key a new server certificate is refused rather than replacing the CA")
    func missingCAKeyRefusesToIssue() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            let authority = try Self.contents(first.caCertificatePath)
            try FileManager.default.removeItem(atPath: first.caKeyPath)
            try FileManager.default.removeItem(atPath: first.serverCertificatePath)

            let error = #expect(throws: TLSError.self) {
                try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            }
            #expect(error?.kind == .configuration)
            #expect(try Self.contents(first.caCertificatePath) == authority)
        }
    }

    @Test("an unparseable CA file is replaced by a new CA and server certificate")
    func corruptCAIsReplaced() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let first = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: first.caCertificatePath))
            let second = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            #expect(second.created)
            #expect(second.fingerprint != first.fingerprint)
            let server = try TLSTestHarness.server(second)
            let client = try TLSTestHarness.client(trustRootsFile: second.caCertificatePath)
            try TLSTestHarness.connect(client: client, server: server)
        }
    }

    @Test("the CA certificate is a 10-year P-256 authority named Snapshare Dev CA")
    func caCertificateHasTheRightShape() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let now = Date()
            let set = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts, now: now)
            let ca = try #require(try X509Certificate.load(pemFile: set.caCertificatePath))
            #expect(X509_check_ca(ca.handle) == 1)
            #expect(X509_get_key_usage(ca.handle) == UInt32(KU_KEY_CERT_SIGN | KU_CRL_SIGN))
            #expect(X509_get0_subject_key_id(ca.handle) != nil)
            #expect(X509_get_signature_nid(ca.handle) == NID_ecdsa_with_SHA256)
            #expect(Self.commonName(ca).hasPrefix("Snapshare Dev CA "))
            #expect(ca.isValid(at: now, margin: 3649 * 86_400))
            #expect(!ca.isValid(at: now, margin: 3651 * 86_400))
            #expect(ca.isSigned(by: ca))
        }
    }

    @Test("the server certificate names every host, serves TLS only, and lasts 825 days")
    func serverCertificateHasTheRightShape() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let now = Date()
            let set = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts, now: now)
            let ca = try #require(try X509Certificate.load(pemFile: set.caCertificatePath))
            let leaf = try #require(try X509Certificate.load(pemFile: set.serverCertificatePath))
            for host in Self.hosts {
                #expect(leaf.names(host), "certificate should name \(host)")
            }
            #expect(!leaf.names("example.com"))
            #expect(Self.commonName(leaf) == "localhost")
            #expect(X509_check_ca(leaf.handle) == 0)
            #expect(X509_get_key_usage(leaf.handle) == UInt32(KU_DIGITAL_SIGNATURE))
            #expect(X509_get_extended_key_usage(leaf.handle) == UInt32(XKU_SSL_SERVER))
            #expect(X509_get0_authority_key_id(leaf.handle) != nil)
            #expect(X509_get_signature_nid(leaf.handle) == NID_ecdsa_with_SHA256)
            #expect(ASN1_STRING_length(X509_get0_serialNumber(leaf.handle)) == 16)
            #expect(leaf.isSigned(by: ca))
            #expect(leaf.isValid(at: now, margin: 824 * 86_400))
            #expect(!leaf.isValid(at: now, margin: 825 * 86_400))
            let key = try #require(try ECPrivateKey.load(pemFile: set.serverKeyPath))
            #expect(EVP_PKEY_get_bits(key.handle) == 256)
            #expect(leaf.matches(key))
        }
    }

    @Test("the fingerprint reads the same from the file, as hex, and in colon form")
    func fingerprintFormats() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let set = try DevCertificateAuthority.ensure(directory: directory, hosts: Self.hosts)
            #expect(
                try DevCertificateAuthority.fingerprint(certificatePEMFile: set.serverCertificatePath)
                    == set.fingerprint)
            #expect(set.fingerprint.count == 32)
            #expect(set.fingerprintHex.count == 64)
            #expect(set.fingerprintHex == set.fingerprintHex.lowercased())
            #expect(set.fingerprintSHA256.count == 95)
            #expect(set.fingerprintSHA256.replacingOccurrences(of: ":", with: "").lowercased() == set.fingerprintHex)
            #expect(DevCertificateAuthority.formatFingerprint([0x0a, 0xbc, 0xff]) == "0A:BC:FF")
            #expect(DevCertificateAuthority.formatFingerprint(hex: "0abcff") == "0A:BC:FF")
        }
    }

    @Test("a missing certificate file has no fingerprint")
    func missingFileHasNoFingerprint() {
        let error = #expect(throws: TLSError.self) {
            try DevCertificateAuthority.fingerprint(certificatePEMFile: "/nonexistent/server.pem")
        }
        #expect(error?.kind == .configuration)
    }

    @Test(
        "host names that cannot go in a certificate are refused",
        arguments: [
            [String](), [""], ["bad name"], ["localhost,DNS:evil.example"], ["ümlaut.example"],
        ])
    func invalidHostsAreRefused(hosts: [String]) throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let error = #expect(throws: TLSError.self) {
                try DevCertificateAuthority.ensure(directory: directory, hosts: hosts)
            }
            #expect(error?.kind == .configuration)
        }
    }

    private static func commonName(_ certificate: X509Certificate) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { pointer in
            X509_NAME_get_text_by_NID(
                X509_get_subject_name(certificate.handle), NID_commonName, pointer.baseAddress, 256)
        }
        guard length > 0 else { return "" }
        return String(decoding: buffer[..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
