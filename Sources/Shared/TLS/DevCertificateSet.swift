import Crypto
import Foundation

/// Why `DevCertificateAuthority.ensure` issued a new server certificate from the class CA.
public enum LeafIssue: Sendable, Equatable {
    /// There was none: a new certificate folder.
    case first
    /// The CA was new (the old one missing, unreadable or expired), so the leaf is too.
    case newAuthority
    /// The previous one ended at `previousEnd`, within 30 days or already past: the renewal.
    case expiring(previousEnd: Date)
    /// The previous one did not name these hosts (a new `--cert-host` or listen address).
    case newNames([String])
    /// The previous one was missing, unreadable, not the CA's, or did not match its key.
    case missingOrUnusable
}

/// Where a development CA and server certificate live, and the server certificate's fingerprint.
///
/// Layout of `directory`: `ca.pem` (public, hand it to clients), `server.pem` (the leaf alone), `fullchain.pem`
/// (the leaf then the CA: what the server sends, so a client without ca.pem can pin the CA rather than the leaf),
/// `server.key` (0600), and `private/ca.key` (directory 0700, file 0600) kept apart so the public files can be
/// copied without the CA key.
public struct DevCertificateSet: Sendable, Equatable {
    /// The directory holding the files below.
    public let directory: String
    /// The CA certificate, PEM: the trust file for clients.
    public let caCertificatePath: String
    /// The CA private key, PEM, mode 0600 inside a 0700 directory.
    public let caKeyPath: String
    /// The server's leaf certificate, PEM, with no chain after it.
    public let serverCertificatePath: String
    /// The leaf followed by the CA certificate, PEM: the chain the server serves.
    public let serverChainPath: String
    /// The server's private key, PEM, mode 0600.
    public let serverKeyPath: String
    /// SHA-256 of the server leaf's DER encoding.
    public let fingerprint: [UInt8]
    /// SHA-256 of the CA certificate's DER encoding: what a client without ca.pem pins.
    public let caFingerprint: [UInt8]
    /// True when this call wrote any file; false when everything was reused.
    public let created: Bool
    /// Why this call issued a new server certificate; nil when it reused the one there.
    public let issued: LeafIssue?
    /// When the server certificate stops being valid (its notAfter); nil when unreadable.
    public let leafNotAfter: Date?

    init(directory: String, fingerprint: [UInt8], caFingerprint: [UInt8], created: Bool, issued: LeafIssue?, leafNotAfter: Date?) {
        self.issued = issued
        self.leafNotAfter = leafNotAfter
        let paths = Self.paths(in: directory)
        self.directory = directory
        self.caCertificatePath = paths.caCertificate
        self.caKeyPath = paths.caKey
        self.serverCertificatePath = paths.serverCertificate
        self.serverChainPath = paths.serverChain
        self.serverKeyPath = paths.serverKey
        self.fingerprint = fingerprint
        self.caFingerprint = caFingerprint
        self.created = created
    }

    /// The leaf fingerprint as colon-separated uppercase hex, e.g. "AB:CD:…", as `openssl x509 -fingerprint` shows it.
    public var fingerprintSHA256: String {
        DevCertificateAuthority.formatFingerprint(fingerprint)
    }

    /// The CA fingerprint as colon-separated uppercase hex.
    public var caFingerprintSHA256: String {
        DevCertificateAuthority.formatFingerprint(caFingerprint)
    }

    /// The leaf fingerprint as plain lowercase hex (64 characters).
    public var fingerprintHex: String {
        SHA256.hex(fingerprint)
    }

    /// The file paths used inside `directory`.
    static func paths(
        in directory: String
    ) -> (
        caCertificate: String, caKey: String, privateDirectory: String, serverCertificate: String,
        serverChain: String, serverKey: String
    ) {
        let base = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return (
            caCertificate: "\(base)/ca.pem",
            caKey: "\(base)/private/ca.key",
            privateDirectory: "\(base)/private",
            serverCertificate: "\(base)/server.pem",
            serverChain: "\(base)/fullchain.pem",
            serverKey: "\(base)/server.key"
        )
    }
}
