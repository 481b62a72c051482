import COpenSSL
import Foundation

/// What a PEM chain file (leaf first) shows a client: the fingerprints an operator reads out to students.
public struct CertificateChainFile: Sendable, Equatable {
    /// SHA-256 of the leaf, the first certificate.
    public let leafSHA256: [UInt8]
    /// SHA-256 of the last certificate: what a client that the system's roots do not vouch for pins (the CA of
    /// a development chain; the leaf itself in a file holding the leaf alone).
    public let anchorSHA256: [UInt8]
    /// How many certificates the file holds.
    public let count: Int
    /// When the leaf stops being valid (its notAfter), for the metrics; nil when unreadable.
    public let leafNotAfter: Date?

    /// Reads every certificate of `path`; throws `.configuration` when it holds none or cannot be read.
    public init(path: String) throws(TLSError) {
        var fingerprints: [[UInt8]] = []
        var leafNotAfter: Date?
        _ = try PEMFile.read(path) { bio in
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                let loaded = X509Certificate(taking: certificate)
                if fingerprints.isEmpty { leafNotAfter = loaded.notAfter }
                fingerprints.append(loaded.sha256)
            }
            return nil
        }
        guard let first = fingerprints.first, let last = fingerprints.last else {
            throw TLSError(kind: .configuration, summary: "no PEM certificate in \(path)")
        }
        leafSHA256 = first
        anchorSHA256 = last
        count = fingerprints.count
        self.leafNotAfter = leafNotAfter
    }

    /// The pinned fingerprint as `openssl x509 -fingerprint` shows it, "AB:CD:…".
    public var anchorFingerprint: String { DevCertificateAuthority.formatFingerprint(anchorSHA256) }

    /// The leaf's fingerprint, formatted the same way.
    public var leafFingerprint: String { DevCertificateAuthority.formatFingerprint(leafSHA256) }

    /// Lines for the server's start and reload: the fingerprint students compare (what a client without --ca
    /// pins), then the leaf's when that is another certificate.
    public var pinLines: [String] {
        count == 1
            ? ["certificate SHA-256 (clients without --ca pin it): \(leafFingerprint)"]
            : [
                "CA SHA-256 (clients without --ca pin it): \(anchorFingerprint)",
                "leaf certificate SHA-256: \(leafFingerprint)",
            ]
    }
}
