import COpenSSL
import Crypto
import Foundation

/// An owned `X509*`: a certificate being built, or one loaded from PEM.
final class X509Certificate: @unchecked Sendable {
    let handle: OpaquePointer

    /// Takes ownership of `handle` (one reference, released in deinit).
    init(taking handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        X509_free(handle)
    }

    /// Loads the first certificate in a PEM file; nil when the file holds no certificate, throws if unreadable.
    static func load(pemFile path: String) throws(TLSError) -> X509Certificate? {
        try PEMFile.read(path) { PEM_read_bio_X509($0, nil, nil, nil) }.map(X509Certificate.init(taking:))
    }

    /// SHA-256 of the DER encoding: the certificate's fingerprint.
    var sha256: [UInt8] { Self.sha256(of: handle) }

    /// The fingerprint of a certificate someone else owns (one in OpenSSL's peer chain).
    static func sha256(of handle: OpaquePointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer {
            X509_digest(handle, EVP_sha256(), $0.baseAddress, &length)
        }
        precondition(status == 1 && length == UInt32(SHA256.byteCount), "X509_digest failed")
        return digest
    }

    /// The end of the validity period (notAfter); nil when OpenSSL cannot read it.
    var notAfter: Date? {
        defer { OpenSSLErrorQueue.clear() }
        var parts = tm()
        guard let time = X509_get0_notAfter(handle), ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The certificate as PEM text.
    func pem() throws(TLSError) -> [UInt8] {
        try PEMFile.encode("certificate") { PEM_write_bio_X509($0, handle) }
    }

    /// True when the certificate's subject alternative names (or CN) cover `host`, a DNS name or IP literal.
    func names(_ host: String) -> Bool {
        defer { OpenSSLErrorQueue.clear() }
        if IPAddress.isLiteral(host) {
            return X509_check_ip_asc(handle, host, 0) == 1
        }
        let flags = UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS)
        return X509_check_host(handle, host, host.utf8.count, flags, nil) == 1
    }

    /// True when `date` lies inside the validity period and at least `margin` remains before it ends.
    func isValid(at date: Date, margin: TimeInterval = 0) -> Bool {
        let start = time_t(date.timeIntervalSince1970)
        let end = time_t((date + margin).timeIntervalSince1970)
        guard let notBefore = X509_get0_notBefore(handle), let notAfter = X509_get0_notAfter(handle) else {
            return false
        }
        // ASN1_TIME_cmp_time_t: -1 before, 0 equal, 1 after, -2 on error.
        let started = ASN1_TIME_cmp_time_t(notBefore, start)
        let ends = ASN1_TIME_cmp_time_t(notAfter, end)
        return (started == -1 || started == 0) && (ends == 1 || ends == 0)
    }

    /// True when `issuer`'s public key verifies this certificate's signature.
    func isSigned(by issuer: X509Certificate) -> Bool {
        defer { OpenSSLErrorQueue.clear() }
        guard let key = X509_get0_pubkey(issuer.handle) else { return false }
        return X509_verify(handle, key) == 1
    }

    /// True when `key` is the private half of this certificate's public key.
    func matches(_ key: ECPrivateKey) -> Bool {
        defer { OpenSSLErrorQueue.clear() }
        return X509_check_private_key(handle, key.handle) == 1
    }
}
