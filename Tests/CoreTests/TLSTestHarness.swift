import Foundation
import Testing

@testable import TLS

/// Which engine of an in-memory pair failed.
enum TLSSide: Equatable {
    case client
    case server
}

/// A handshake error tagged with the side that raised it.
struct TLSHandshakeFailure: Error {
    let side: TLSSide
    let error: TLSError
}

/// Shared helpers for the TLS tests: temporary certificate directories and two engines wired back to back.
enum TLSTestHarness {
    /// The hosts a development server certificate usually covers.
    static let localHosts = ["localhost", "127.0.0.1", "::1"]

    /// Runs `body` with a fresh temporary directory that is removed afterwards.
    static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("snapshare-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    /// Makes a CA and server certificate for `hosts` in a subdirectory of `directory`.
    static func certificates(in directory: String, named name: String = "certs", hosts: [String] = localHosts)
        throws -> DevCertificateSet
    {
        try DevCertificateAuthority.ensure(directory: "\(directory)/\(name)", hosts: hosts)
    }

    /// A server engine using `certificates`: sending the leaf alone, or with `chain` the leaf and the CA (what
    /// snapshare-server serves).
    static func server(_ certificates: DevCertificateSet, chain: Bool = false) throws -> TLSEngine {
        try server(
            chainFile: chain ? certificates.serverChainPath : certificates.serverCertificatePath,
            keyFile: certificates.serverKeyPath)
    }

    /// A server engine sending the certificates of `chainFile`.
    static func server(chainFile: String, keyFile: String) throws -> TLSEngine {
        let context = try TLSContext.server(certificateChainFile: chainFile, privateKeyFile: keyFile)
        return try TLSEngine(context: context, role: .server)
    }

    /// A client engine dialling `serverName`, trusting `trustRootsFile`; with nil, the system-or-pin mode whose
    /// system roots are `systemRoots` (by default none, so tests never depend on the machine's store).
    static func client(
        serverName: String = "localhost", trustRootsFile: String?, version: TLSVersion = .tls13,
        systemRoots: TLSContext.SystemRoots = .none
    ) throws -> TLSEngine {
        let context = try TLSContext.client(trustRootsFile: trustRootsFile, version: version, systemRoots: systemRoots)
        return try TLSEngine(context: context, role: .client(serverName: serverName))
    }

    /// Runs `body` with a client and a server engine for a fresh development CA (its certificates
    /// in a temporary directory), the client trusting that CA; `connected` drives the handshake first.
    static func withPair<T>(connected: Bool = true, _ body: (TLSEngine, TLSEngine, DevCertificateSet) throws -> T) throws -> T {
        try withTemporaryDirectory { directory in
            let certificates = try certificates(in: directory)
            let server = try server(certificates)
            let client = try client(trustRootsFile: certificates.caCertificatePath)
            if connected { try connect(client: client, server: server) }
            return try body(client, server, certificates)
        }
    }

    /// Moves every pending ciphertext byte from `source` to `destination`; returns how many moved.
    @discardableResult
    static func transfer(from source: TLSEngine, to destination: TLSEngine) -> Int {
        let bytes = source.takeNetworkBytes()
        destination.receiveFromNetwork(bytes)
        return bytes.count
    }

    /// Drives both handshakes to completion, pumping bytes between the engines like a network would.
    static func connect(client: TLSEngine, server: TLSEngine) throws(TLSHandshakeFailure) {
        for _ in 0..<10 {
            let clientState: TLSEngine.HandshakeState
            do { clientState = try client.handshake() } catch {
                throw TLSHandshakeFailure(side: .client, error: error)
            }
            let sentByClient = transfer(from: client, to: server)
            let serverState: TLSEngine.HandshakeState
            do { serverState = try server.handshake() } catch {
                throw TLSHandshakeFailure(side: .server, error: error)
            }
            let sentByServer = transfer(from: server, to: client)
            if clientState == .complete, serverState == .complete, sentByClient == 0, sentByServer == 0 {
                return
            }
        }
        Issue.record("handshake did not finish in 10 rounds")
    }

    /// Reads from `engine` until `count` plaintext bytes have arrived or it needs more data.
    static func read(_ engine: TLSEngine, count: Int, maxBytesPerCall: Int = 64 * 1024) throws -> [UInt8] {
        var received: [UInt8] = []
        while received.count < count {
            guard case .bytes = try engine.readPlaintext(into: &received, maxBytes: maxBytesPerCall) else { break }
        }
        return received
    }
}
