import Foundation
import Testing

@testable import TLS

/// A client without a trust file: the system's roots first, else a chain that verifies against its own last
/// certificate, whose fingerprint the caller pins.
@Suite("TLS trust without a CA file")
struct PeerTrustTests {
    /// The client's verdict after a handshake with a server sending `chainFile`.
    static func trust(
        serverName: String = "localhost", chainFile: String, keyFile: String, systemRoots: TLSContext.SystemRoots = .none
    ) throws -> PeerTrust? {
        let server = try TLSTestHarness.server(chainFile: chainFile, keyFile: keyFile)
        let client = try TLSTestHarness.client(serverName: serverName, trustRootsFile: nil, systemRoots: systemRoots)
        try TLSTestHarness.connect(client: client, server: server)
        return client.peerTrust
    }

    @Test("a server the system's roots vouch for is trusted as it is: nothing to pin")
    func systemTrustedIsNotPinned() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let set = try TLSTestHarness.certificates(in: directory)
            // Both shapes of chain: the system's store holds the CA either way.
            for chain in [set.serverChainPath, set.serverCertificatePath] {
                let trust = try Self.trust(chainFile: chain, keyFile: set.serverKeyPath, systemRoots: .file(set.caCertificatePath))
                #expect(trust == .system)
            }
        }
    }

    @Test("an untrusted chain is pinnable by its CA, and a leaf renewed by the same CA pins the same")
    func chainPinsTheAuthority() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let first = try TLSTestHarness.certificates(in: directory)
            let before = try Self.trust(chainFile: first.serverChainPath, keyFile: first.serverKeyPath)
            #expect(before == .pinnable(anchorSHA256: first.caFingerprint, anchorIsLeaf: false))
            // A renewal: same CA, new key and leaf.
            try FileManager.default.removeItem(atPath: first.serverCertificatePath)
            let renewed = try DevCertificateAuthority.ensure(directory: first.directory, hosts: TLSTestHarness.localHosts)
            #expect(renewed.fingerprint != first.fingerprint)
            let after = try Self.trust(chainFile: renewed.serverChainPath, keyFile: renewed.serverKeyPath)
            #expect(after == before)
        }
    }

    @Test("a leaf sent alone is pinnable by itself")
    func loneLeafPinsItself() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let set = try TLSTestHarness.certificates(in: directory)
            let trust = try Self.trust(chainFile: set.serverCertificatePath, keyFile: set.serverKeyPath)
            #expect(trust == .pinnable(anchorSHA256: set.fingerprint, anchorIsLeaf: true))
        }
    }

    @Test("pinning still checks the host name", arguments: ["snapshare.example", "10.9.8.7"])
    func pinnableStillNeedsTheName(serverName: String) throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let set = try TLSTestHarness.certificates(in: directory)
            let failure = #expect(throws: TLSHandshakeFailure.self) {
                _ = try Self.trust(serverName: serverName, chainFile: set.serverChainPath, keyFile: set.serverKeyPath)
            }
            #expect(failure?.side == .client)
            #expect(failure?.error.kind == .hostnameMismatch)
        }
    }

    @Test("a leaf from another CA sent with the pinned CA after it does not verify")
    func borrowedAuthorityIsRefused() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let real = try TLSTestHarness.certificates(in: directory, named: "real")
            let attacker = try TLSTestHarness.certificates(in: directory, named: "attacker")
            // The attacker's own leaf and key, followed by the real CA a client may have pinned.
            let forged = "\(directory)/forged.pem"
            let bytes =
                try Data(contentsOf: URL(fileURLWithPath: attacker.serverCertificatePath))
                + Data(contentsOf: URL(fileURLWithPath: real.caCertificatePath))
            try bytes.write(to: URL(fileURLWithPath: forged))
            let failure = #expect(throws: TLSHandshakeFailure.self) {
                _ = try Self.trust(chainFile: forged, keyFile: attacker.serverKeyPath)
            }
            #expect(failure?.side == .client)
            #expect(failure?.error.kind == .certificateVerifyFailed)
        }
    }

    @Test("a chain file tells the operator which fingerprint clients pin")
    func chainFileNamesThePin() throws {
        try TLSTestHarness.withTemporaryDirectory { directory in
            let set = try TLSTestHarness.certificates(in: directory)
            let chain = try CertificateChainFile(path: set.serverChainPath)
            #expect(chain.count == 2 && chain.leafSHA256 == set.fingerprint && chain.anchorSHA256 == set.caFingerprint)
            #expect(chain.pinLines.first?.contains(set.caFingerprintSHA256) == true)
            let leaf = try CertificateChainFile(path: set.serverCertificatePath)
            #expect(leaf.count == 1 && leaf.anchorSHA256 == set.fingerprint)
            #expect(throws: TLSError.self) { try CertificateChainFile(path: set.serverKeyPath) }
        }
    }
}
