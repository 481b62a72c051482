import COpenSSL
import Crypto
import Foundation
import Posix

/// A development certificate authority made in-process with libcrypto (P-256, ECDSA with SHA-256), and the
/// server certificate it issues. No openssl command line is involved.
public enum DevCertificateAuthority {
    /// How long the CA certificate is valid.
    public static let caValidityDays = 3650
    /// How long a server certificate is valid (the longest period Apple platforms accept).
    public static let serverValidityDays = 825
    /// A server certificate closer than this to its end is replaced rather than reused.
    static let renewalMargin: TimeInterval = 30 * 86_400
    /// Certificates start this much before `now`, so a peer whose clock runs a little behind accepts them.
    static let clockSkewAllowance: TimeInterval = 3_600

    /// Makes sure `directory` holds a CA and a server certificate for `hosts`, reusing what is already there.
    ///
    /// `hosts` are DNS names and IP literals (e.g. localhost, 127.0.0.1, ::1, the machine's name); the first one
    /// becomes the common name and all of them go in the subject alternative names. The server certificate is
    /// reused when it parses, matches its key, was signed by the CA, covers every host and has more than 30 days
    /// left; otherwise a new one is issued from the existing CA. A new CA is made only when ca.pem is missing,
    /// unparseable or expired. If ca.pem is valid but its key is gone, a new server certificate cannot be issued
    /// and this throws rather than replace a CA that clients may already trust.
    public static func ensure(directory: String, hosts: [String], now: Date = Date()) throws(TLSError)
        -> DevCertificateSet
    {
        let hosts = try validated(hosts)
        let paths = DevCertificateSet.paths(in: directory)
        // Readable by everyone when it is new: it holds the public ca.pem that students copy (the
        // keys live in private/, mode 0700, and are 0600 themselves). Folders made above it are
        // the owner's alone, as the server's umask would make them.
        do {
            try FileSystem.makeFolders(FileSystem.folder(of: directory), mode: 0o700)
            try FileSystem.makeFolder(directory, mode: 0o755)
        } catch {
            throw TLSError(kind: .configuration, summary: "cannot create directory \(error.path ?? directory): \(error.reason)")
        }
        try PEMFile.makeDirectory(paths.privateDirectory, mode: 0o700)

        var authority = try loadAuthority(certificatePath: paths.caCertificate, keyPath: paths.caKey, now: now)
        var issue = PEMFile.exists(paths.caCertificate) ? LeafIssue.newAuthority : .first
        if let authority {
            switch try existingServerCertificate(
                certificatePath: paths.serverCertificate, keyPath: paths.serverKey,
                authority: authority.certificate, hosts: hosts, now: now)
            {
            case .reusable(let leaf):
                let wrote = try writeChain(leaf: leaf, authority: authority.certificate, to: paths.serverChain)
                return DevCertificateSet(
                    directory: directory, fingerprint: leaf.sha256, caFingerprint: authority.certificate.sha256,
                    created: wrote, issued: nil, leafNotAfter: leaf.notAfter)
            case .replace(let why):
                issue = why
            }
        }
        if authority == nil {
            let made = try makeAuthority(now: now)
            // Key first: a crash between the two writes leaves a key without a certificate, which the next run
            // treats as "no CA" and replaces; the reverse could leave a trusted CA whose key is lost.
            try PEMFile.write(made.key.pem(), to: paths.caKey, mode: 0o600)
            try PEMFile.write(made.certificate.pem(), to: paths.caCertificate, mode: 0o644)
            authority = (made.certificate, made.key)
        }
        guard let authority, let authorityKey = authority.key else {
            throw TLSError(
                kind: .configuration,
                summary: "\(paths.caKey) is missing or does not match \(paths.caCertificate), so a new server "
                    + "certificate cannot be issued; restore the CA key, or delete ca.pem to start a new CA")
        }
        let leaf = try issueServerCertificate(
            hosts: hosts, authority: authority.certificate, authorityKey: authorityKey, now: now)
        try PEMFile.write(leaf.key.pem(), to: paths.serverKey, mode: 0o600)
        try PEMFile.write(leaf.certificate.pem(), to: paths.serverCertificate, mode: 0o644)
        _ = try writeChain(leaf: leaf.certificate, authority: authority.certificate, to: paths.serverChain)
        return DevCertificateSet(
            directory: directory, fingerprint: leaf.certificate.sha256, caFingerprint: authority.certificate.sha256,
            created: true, issued: issue, leafNotAfter: leaf.certificate.notAfter)
    }

    /// Writes the chain the server sends, the leaf then the CA, unless `path` already holds exactly that (a
    /// directory made before chains were served gets one). A client that pins reaches the CA through it.
    private static func writeChain(
        leaf: X509Certificate, authority: X509Certificate, to path: String
    ) throws(TLSError) -> Bool {
        let chain = try leaf.pem() + authority.pem()
        if let existing = FileManager.default.contents(atPath: path), [UInt8](existing) == chain { return false }
        try PEMFile.write(chain, to: path, mode: 0o644)
        return true
    }

    /// SHA-256 of the DER encoding of the first certificate in a PEM file.
    public static func fingerprint(certificatePEMFile path: String) throws(TLSError) -> [UInt8] {
        guard PEMFile.exists(path) else {
            throw TLSError(kind: .configuration, summary: "no certificate file at \(path)")
        }
        guard let certificate = try X509Certificate.load(pemFile: path) else {
            throw TLSError(kind: .configuration, summary: "no PEM certificate in \(path)")
        }
        return certificate.sha256
    }

    /// Formats a fingerprint as colon-separated uppercase hex: "AB:CD:EF:…".
    public static func formatFingerprint(_ bytes: some Sequence<UInt8>) -> String {
        formatFingerprint(hex: SHA256.hex(bytes))
    }

    /// Formats a fingerprint kept as hex ("ab12…", as in the client's known servers) the same way.
    public static func formatFingerprint(hex: String) -> String {
        var pairs: [String] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) ?? hex.endIndex
            pairs.append(hex[index..<next].uppercased())
            index = next
        }
        return pairs.joined(separator: ":")
    }

    // MARK: Loading

    /// The CA in `certificatePath`, with its key when that is present and matches; nil when there is no usable CA.
    private static func loadAuthority(
        certificatePath: String, keyPath: String, now: Date
    ) throws(TLSError) -> (certificate: X509Certificate, key: ECPrivateKey?)? {
        guard PEMFile.exists(certificatePath),
            let certificate = try X509Certificate.load(pemFile: certificatePath),
            certificate.isValid(at: now)
        else { return nil }
        guard PEMFile.exists(keyPath), let key = try ECPrivateKey.load(pemFile: keyPath), certificate.matches(key)
        else {
            return (certificate, nil)
        }
        return (certificate, key)
    }

    /// What to do with the existing server certificate under `authority`.
    private enum ExistingLeaf {
        /// It serves `hosts` for a while yet.
        case reusable(X509Certificate)
        /// A new one is issued, for this reason.
        case replace(LeafIssue)
    }

    /// The existing server certificate when it can serve `hosts` for a while yet under `authority`,
    /// else why it is replaced.
    private static func existingServerCertificate(
        certificatePath: String, keyPath: String, authority: X509Certificate, hosts: [String], now: Date
    ) throws(TLSError) -> ExistingLeaf {
        guard PEMFile.exists(certificatePath), PEMFile.exists(keyPath),
            let certificate = try X509Certificate.load(pemFile: certificatePath),
            let key = try ECPrivateKey.load(pemFile: keyPath),
            certificate.matches(key),
            certificate.isSigned(by: authority)
        else { return .replace(.missingOrUnusable) }
        guard certificate.isValid(at: now, margin: renewalMargin) else {
            return .replace(certificate.notAfter.map { .expiring(previousEnd: $0) } ?? .missingOrUnusable)
        }
        let missing = hosts.filter { !certificate.names($0) }
        guard missing.isEmpty else { return .replace(.newNames(missing)) }
        return .reusable(certificate)
    }

    // MARK: Issuing

    private static func makeAuthority(now: Date) throws(TLSError) -> (certificate: X509Certificate, key: ECPrivateKey) {
        let key = try ECPrivateKey.generateP256()
        let name = "Snapshare Dev CA \(SHA256.hex(SecureRandom.bytes(4)))"
        let certificate = try makeCertificate(
            commonName: name, publicKey: key, now: now, days: caValidityDays, issuer: nil,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE"),
                (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
            ])
        try sign(certificate, with: key)
        return (certificate, key)
    }

    private static func issueServerCertificate(
        hosts: [String], authority: X509Certificate, authorityKey: ECPrivateKey, now: Date
    ) throws(TLSError) -> (certificate: X509Certificate, key: ECPrivateKey) {
        let key = try ECPrivateKey.generateP256()
        let alternativeNames = hosts.map { IPAddress.isLiteral($0) ? "IP:\($0)" : "DNS:\($0)" }
        // X.509 caps a common name at 64 characters; the SAN list is what clients check anyway.
        let commonName = hosts[0].utf8.count <= 64 ? hosts[0] : "Snapshare server"
        let certificate = try makeCertificate(
            commonName: commonName, publicKey: key, now: now, days: serverValidityDays, issuer: authority,
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"),
                (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "serverAuth"),
                (NID_subject_key_identifier, "hash"),
                (NID_authority_key_identifier, "keyid:always"),
                (NID_subject_alt_name, alternativeNames.joined(separator: ",")),
            ])
        try sign(certificate, with: authorityKey)
        return (certificate, key)
    }

    /// Builds an unsigned v3 certificate; `issuer` nil means self-issued.
    private static func makeCertificate(
        commonName: String, publicKey: ECPrivateKey, now: Date, days: Int, issuer: X509Certificate?,
        extensions: [(nid: Int32, value: String)]
    ) throws(TLSError) -> X509Certificate {
        OpenSSLErrorQueue.clear()
        guard let handle = X509_new() else {
            throw TLSError.drainingErrorQueue(.internal, "X509_new failed")
        }
        let certificate = X509Certificate(taking: handle)
        let notBefore = now - clockSkewAllowance
        let notAfter = notBefore + TimeInterval(days) * 86_400
        guard X509_set_version(handle, 2) == 1, // 2 means X.509 v3
            setRandomSerial(handle),
            ASN1_TIME_set(X509_getm_notBefore(handle), time_t(notBefore.timeIntervalSince1970)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(handle), time_t(notAfter.timeIntervalSince1970)) != nil,
            X509_set_pubkey(handle, publicKey.handle) == 1,
            addNameEntry(X509_get_subject_name(handle), field: "O", value: "Snapshare"),
            addNameEntry(X509_get_subject_name(handle), field: "CN", value: commonName),
            X509_set_issuer_name(handle, X509_get_subject_name(issuer?.handle ?? handle)) == 1
        else {
            throw TLSError.drainingErrorQueue(.internal, "cannot fill in certificate for \(commonName)")
        }
        var extensionContext = X509V3_CTX()
        X509V3_set_ctx(&extensionContext, issuer?.handle ?? handle, handle, nil, nil, 0)
        for (nid, value) in extensions {
            guard let `extension` = X509V3_EXT_conf_nid(nil, &extensionContext, nid, value) else {
                throw TLSError.drainingErrorQueue(.internal, "cannot build certificate extension \(value)")
            }
            defer { X509_EXTENSION_free(`extension`) }
            guard X509_add_ext(handle, `extension`, -1) == 1 else {
                throw TLSError.drainingErrorQueue(.internal, "cannot add certificate extension \(value)")
            }
        }
        return certificate
    }

    private static func sign(_ certificate: X509Certificate, with key: ECPrivateKey) throws(TLSError) {
        OpenSSLErrorQueue.clear()
        guard X509_sign(certificate.handle, key.handle, EVP_sha256()) > 0 else {
            throw TLSError.drainingErrorQueue(.internal, "cannot sign certificate")
        }
    }

    /// Sets a random positive 16-byte serial number (RFC 5280: unique per issuer, at most 20 bytes).
    private static func setRandomSerial(_ certificate: OpaquePointer) -> Bool {
        var serial = SecureRandom.bytes(16)
        serial[0] = serial[0] & 0x7f | 0x40 // positive, and exactly 16 bytes long
        guard let number = BN_bin2bn(serial, Int32(serial.count), nil) else { return false }
        defer { BN_free(number) }
        return BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil
    }

    private static func addNameEntry(_ name: OpaquePointer?, field: String, value: String) -> Bool {
        let bytes = Array(value.utf8)
        return X509_NAME_add_entry_by_txt(name, field, MBSTRING_ASC, bytes, Int32(bytes.count), -1, 0) == 1
    }

    /// Drops duplicates and refuses names that could not appear in a certificate (or would smuggle extra SAN entries).
    private static func validated(_ hosts: [String]) throws(TLSError) -> [String] {
        var unique: [String] = []
        for host in hosts where !unique.contains(host) {
            let isName =
                host.utf8.count <= 253
                && host.utf8.allSatisfy { byte in
                    (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x30 && byte <= 0x39)
                        || byte == 0x2d || byte == 0x2e || byte == 0x5f // - . _
                }
            guard !host.isEmpty, isName || IPAddress.isLiteral(host) else {
                throw TLSError(kind: .configuration, summary: "not a host name or IP address: \(host)")
            }
            unique.append(host)
        }
        guard !unique.isEmpty else {
            throw TLSError(kind: .configuration, summary: "a server certificate needs at least one host name")
        }
        return unique
    }
}
