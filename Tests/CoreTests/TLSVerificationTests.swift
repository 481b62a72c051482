import Foundation
import Testing

@testable import Crypto
@testable import TLS

@Suite("TLS peer verification")
struct TLSVerificationTests {
    @Test(
        "a client verifies the server by DNS name, IPv4 and IPv6 address", arguments: ["localhost", "127.0.0.1", "::1"])
    func clientAcceptsEveryCertifiedIdentity(serverName: String) throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let server = try TLSTestHarness.server(certificates)
            let client = try TLSTestHarness.client(
                serverName: serverName, trustRootsFile: certificates.caCertificatePath)
            try TLSTestHarness.connect(client: client, server: server)
            #expect(client.isHandshakeComplete)
        }
    }

    @Test("a client rejects a server whose certificate comes from another CA")
    func clientRejectsWrongCA() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory, named: "real")
            let stranger = try TLSTestHarness.certificates(in: directory, named: "stranger")
            let server = try TLSTestHarness.server(certificates)
            let client = try TLSTestHarness.client(trustRootsFile: stranger.caCertificatePath)

            let failure = #expect(throws: TLSHandshakeFailure.self) {
                try TLSTestHarness.connect(client: client, server: server)
            }
            #expect(failure?.side == .client)
            #expect(failure?.error.kind == .certificateVerifyFailed)
            #expect(failure?.error.verifyCode == 20) // X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY
            #expect(failure?.error.message.contains("certificate verify failed") == true)

            // The client's alert tells the server why.
            TLSTestHarness.transfer(from: client, to: server)
            let serverError = #expect(throws: TLSError.self) { try server.handshake() }
            #expect(serverError?.kind == .handshakeFailed)
            #expect(serverError?.message.contains("unknown ca") == true)
        }
    }

    @Test(
        "a client rejects a certificate for another host name or address",
        arguments: [
            ("snapshare.example", 62), ("10.1.2.3", 64), ("::2", 64),
        ])
    func clientRejectsWrongHost(serverName: String, verifyCode: Int) throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let server = try TLSTestHarness.server(certificates)
            let client = try TLSTestHarness.client(
                serverName: serverName, trustRootsFile: certificates.caCertificatePath)

            let failure = #expect(throws: TLSHandshakeFailure.self) {
                try TLSTestHarness.connect(client: client, server: server)
            }
            #expect(failure?.side == .client)
            #expect(failure?.error.kind == .hostnameMismatch)
            #expect(failure?.error.verifyCode == verifyCode)
            let reason = verifyCode == 62 ? "hostname mismatch (62)" : "IP address mismatch (64)"
            #expect(failure?.error.message.hasPrefix("certificate verify failed: \(reason)") == true)
        }
    }

    @Test("a partial wildcard never matches a host name")
    func clientRejectsLookalikeHost() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let server = try TLSTestHarness.server(certificates)
            let client = try TLSTestHarness.client(
                serverName: "localhost.evil", trustRootsFile: certificates.caCertificatePath)
            let failure = #expect(throws: TLSHandshakeFailure.self) {
                try TLSTestHarness.connect(client: client, server: server)
            }
            #expect(failure?.error.kind == .hostnameMismatch)
        }
    }

    @Test("a server refuses a client that offers only TLS 1.2")
    func serverRejectsTLS12() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let server = try TLSTestHarness.server(certificates)
            let client = try TLSTestHarness.client(trustRootsFile: certificates.caCertificatePath, version: .tls12)

            let failure = #expect(throws: TLSHandshakeFailure.self) {
                try TLSTestHarness.connect(client: client, server: server)
            }
            #expect(failure?.side == .server)
            #expect(failure?.error.kind == .protocolVersion)

            // The server's protocol_version alert reaches the client.
            TLSTestHarness.transfer(from: server, to: client)
            let clientError = #expect(throws: TLSError.self) { try client.handshake() }
            #expect(clientError?.kind == .protocolVersion)
        }
    }

    @Test("without a trust file the client completes and sees the leaf fingerprint the CA reported")
    func pinningClientSeesTheFingerprint() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let server = try TLSTestHarness.server(certificates)
            let client = try TLSTestHarness.client(trustRootsFile: nil)

            try TLSTestHarness.connect(client: client, server: server)
            let fingerprint = try #require(client.peerCertificateSHA256)
            #expect(fingerprint == certificates.fingerprint)
            #expect(SHA256.hex(fingerprint) == certificates.fingerprintHex)
            #expect(
                fingerprint
                    == (try DevCertificateAuthority.fingerprint(
                        certificatePEMFile: certificates.serverCertificatePath)))
        }
    }

    @Test(
        "without a trust file the client still rejects the wrong host name",
        arguments: [
            ("snapshare.example", 62), ("192.0.2.7", 64),
        ])
    func pinningClientChecksTheHostName(serverName: String, verifyCode: Int) throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory)
            let server = try TLSTestHarness.server(certificates)
            let client = try TLSTestHarness.client(serverName: serverName, trustRootsFile: nil)

            let failure = #expect(throws: TLSHandshakeFailure.self) {
                try TLSTestHarness.connect(client: client, server: server)
            }
            #expect(failure?.side == .client)
            #expect(failure?.error.kind == .hostnameMismatch)
            #expect(failure?.error.verifyCode == verifyCode)
            let again = #expect(throws: TLSError.self) { try client.handshake() }
            #expect(again?.kind == .hostnameMismatch)
        }
    }

    @Test("without a trust file a certificate from any CA completes, so the caller must pin")
    func pinningClientAcceptsAnyChain() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let certificates = try TLSTestHarness.certificates(in: directory, named: "one")
            let other = try TLSTestHarness.certificates(in: directory, named: "two")
            let server = try TLSTestHarness.server(other)
            let client = try TLSTestHarness.client(trustRootsFile: nil)
            try TLSTestHarness.connect(client: client, server: server)
            #expect(client.peerCertificateSHA256 == other.fingerprint)
            #expect(client.peerCertificateSHA256 != certificates.fingerprint)
        }
    }
}
