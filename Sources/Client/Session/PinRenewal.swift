import Crypto
import TLS

/// Trusting a server again after its pinned certificate changed (`snapshare trust`): the new
/// fingerprint, read out by the instructor, is pinned only when the server presents exactly it.
enum PinRenewal {
    enum Outcome: Equatable {
        /// The fingerprint (lowercase hex) is now the one pinned for the server.
        case pinned(String)
        /// The system's roots vouch for the server, so nothing is pinned; `removedPin` says
        /// whether an old pin was forgotten.
        case trustedBySystem(removedPin: Bool)
    }

    /// Connects to the server of `settings` without checking any pin, and pins `fingerprint`
    /// (hex, colons allowed) if the chain it presents ends in that certificate. A server
    /// presenting another one is refused (`.tls`), naming what it presented.
    static func trust(_ fingerprint: String, settings: ConnectionSettings, state: ClientState) throws(ClientError) -> Outcome {
        guard let wanted = KnownServers.normalized(fingerprint) else {
            throw ClientError(.usage, "'\(fingerprint)' is not a SHA-256 fingerprint (64 hex digits, colons allowed)")
        }
        let context: TLSContext
        do { context = try TLSContext.client(trustRootsFile: nil) } catch { throw ClientError(.tls, "\(error)") }
        let connection = try ServerConnection(
            host: settings.host, port: settings.port, context: context,
            timeout: settings.timeoutSeconds)
        defer { connection.close() }
        let serverKey = settings.serverKey
        switch connection.peerTrust {
        case .pinnable(let anchor, _)?:
            let presented = SHA256.hex(anchor)
            guard presented == wanted else {
                throw ClientError.certificate(
                    """
                    \(serverKey) presents \(DevCertificateAuthority.formatFingerprint(hex: presented)), \
                    not \(DevCertificateAuthority.formatFingerprint(hex: wanted)); nothing was trusted
                    """)
            }
            try local { () throws(ClientStateError) in try state.trust(fingerprint: wanted, for: serverKey) }
            return .pinned(wanted)
        case .system?, .trustFile?:
            return .trustedBySystem(removedPin: try local { () throws(ClientStateError) in try state.forgetFingerprint(for: serverKey) })
        case nil:
            throw ClientError(.tls, "the TLS layer gave no reason to trust \(serverKey)")
        }
    }

    /// A state-folder call, its failure as the client's.
    private static func local<T>(_ body: () throws(ClientStateError) -> T) throws(ClientError) -> T {
        do { return try body() } catch { throw ClientError(.local, error.description) }
    }
}
