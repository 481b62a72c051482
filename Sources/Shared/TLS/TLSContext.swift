import COpenSSL
import Glibc
import Posix

/// Shared TLS settings (an `SSL_CTX`): protocol version, certificates, trust. One per server or client, shared by
/// every connection; OpenSSL locks it internally, so it may be used from any thread.
public final class TLSContext: @unchecked Sendable {
    /// The owned `SSL_CTX*`, freed in deinit.
    let handle: OpaquePointer
    /// How a client context trusts servers; `.none` for a server context.
    let trust: Trust

    /// How a client decides to trust the server it reached.
    enum Trust {
        /// A server context: clients are not asked for certificates.
        case none
        /// OpenSSL verifies the chain and name against exactly the CA certificates of a trust file, and the
        /// handshake fails otherwise.
        case trustFile
        /// OpenSSL verifies against the system's trusted roots but lets the handshake finish whatever the verdict;
        /// the engine then either accepts the system's word or verifies the chain against its own last
        /// certificate, which the caller pins (`TLSEngine.peerTrust`).
        case systemOrPin
    }

    /// Where a system-or-pin client finds the roots it trusts without asking.
    enum SystemRoots {
        /// OpenSSL's defaults: the distribution's store (Debian: /etc/ssl/certs), or `SSL_CERT_FILE` and
        /// `SSL_CERT_DIR` when set.
        case platform
        /// One PEM file of roots, as if it were the system's (tests).
        case file(String)
        /// None: every server is pinned (tests that must not depend on the machine's store).
        case none
    }

    /// Key-exchange groups, most preferred first. A client sends a key share for the first one only, and an OpenSSL
    /// server takes the first share it supports, so the client's order decides. X25519 comes first: it is what
    /// TLS clients everywhere send, it is faster than P-256, and it is smaller to hold: OpenSSL keeps both ephemeral
    /// keys until the connection ends, and a P-256 pair costs about 3.5 KB more per connection than an X25519 one
    /// (measured for docs/benchmarks.md). P-256 stays accepted. Certificates are P-256 ECDSA either way.
    static let groups = "X25519:P-256"

    /// TLS 1.3 cipher suites, most preferred first (a server picks by its own order). All three are AEADs with
    /// 128-bit or better security; AES-128-GCM comes first because it is the cheapest on CPUs with AES-NI: sealing a
    /// 100 KB photo costs about 39 µs here against 52 µs with AES-256-GCM (`openssl speed -evp`), on both ends.
    static let cipherSuites = "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256"

    private init(handle: OpaquePointer, trust: Trust) {
        self.handle = handle
        self.trust = trust
    }

    deinit {
        SSL_CTX_free(handle)
    }

    /// Makes a TLS 1.3-only server context from a PEM certificate chain (leaf first) and its PEM private key.
    public static func server(certificateChainFile: String, privateKeyFile: String) throws(TLSError) -> TLSContext {
        try requireReadableFile(certificateChainFile, role: "certificate chain")
        try requireReadableFile(privateKeyFile, role: "private key")
        let context = try make(method: TLS_server_method(), version: .tls13, trust: .none)
        let ctx = context.handle
        _ = SSL_CTX_set_options(
            ctx,
            snapshare_SSL_OP_NO_RENEGOTIATION | snapshare_SSL_OP_NO_COMPRESSION
                | snapshare_SSL_OP_CIPHER_SERVER_PREFERENCE
        )
        // No session tickets and no session cache: Snapshare connections are long-lived, so resumption saves
        // little, while tickets would cost bytes after every handshake and need ticket-key rotation and a
        // replay story (0-RTT) to be safe. Turn it on only together with those.
        _ = SSL_CTX_set_num_tickets(ctx, 0)
        _ = snapshare_SSL_CTX_set_session_cache_mode(ctx, snapshare_SSL_SESS_CACHE_OFF)

        OpenSSLErrorQueue.clear()
        guard SSL_CTX_use_certificate_chain_file(ctx, certificateChainFile) == 1 else {
            throw TLSError.drainingErrorQueue(
                .configuration, "cannot load certificate chain from \(certificateChainFile)")
        }
        guard SSL_CTX_use_PrivateKey_file(ctx, privateKeyFile, SSL_FILETYPE_PEM) == 1 else {
            // Loading the key already compares it with the certificate; say so rather than "cannot load".
            let entries = OpenSSLErrorQueue.drain()
            let mismatch = entries.contains { $0.library == ERR_LIB_X509 && $0.reason == X509_R_KEY_VALUES_MISMATCH }
            let summary =
                mismatch
                ? "private key \(privateKeyFile) does not match certificate \(certificateChainFile)"
                : "cannot load private key from \(privateKeyFile)"
            throw TLSError(kind: .configuration, summary: summary, openSSLErrors: entries.map(\.text))
        }
        guard SSL_CTX_check_private_key(ctx) == 1 else {
            throw TLSError.drainingErrorQueue(
                .configuration, "private key \(privateKeyFile) does not match certificate \(certificateChainFile)")
        }
        return context
    }

    /// Makes a TLS 1.3-only client context.
    ///
    /// With `trustRootsFile`, the server's chain must verify against exactly the CA certificates in that PEM file
    /// (never the system store). With nil, a server the system's trusted roots vouch for is accepted as it is, and
    /// any other is accepted only when its chain verifies against the chain's own last certificate, whose
    /// fingerprint the caller then pins (`TLSEngine.peerTrust`). The host name is checked in every case.
    public static func client(trustRootsFile: String?) throws(TLSError) -> TLSContext {
        try client(trustRootsFile: trustRootsFile, version: .tls13)
    }

    /// Makes a client context pinned to `version` (anything but `.tls13` exists so tests can offer an old
    /// version), finding the system's roots in `systemRoots` when there is no trust file.
    static func client(
        trustRootsFile: String?, version: TLSVersion, systemRoots: SystemRoots = .platform
    ) throws(TLSError) -> TLSContext {
        if let trustRootsFile {
            try requireReadableFile(trustRootsFile, role: "trust roots")
        }
        let context = try make(
            method: TLS_client_method(), version: version, trust: trustRootsFile == nil ? .systemOrPin : .trustFile)
        let ctx = context.handle
        _ = SSL_CTX_set_options(ctx, snapshare_SSL_OP_NO_RENEGOTIATION | snapshare_SSL_OP_NO_COMPRESSION)
        OpenSSLErrorQueue.clear()
        if let trustRootsFile {
            guard SSL_CTX_load_verify_locations(ctx, trustRootsFile, nil) == 1 else {
                throw TLSError.drainingErrorQueue(
                    .configuration, "cannot load trusted CA certificates from \(trustRootsFile)")
            }
            SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
            return context
        }
        switch systemRoots {
        case .platform:
            // A machine without a CA store trusts nothing by itself: every server is then pinned.
            _ = SSL_CTX_set_default_verify_paths(ctx)
        case .file(let path):
            guard SSL_CTX_load_verify_locations(ctx, path, nil) == 1 else {
                throw TLSError.drainingErrorQueue(.configuration, "cannot load system roots from \(path)")
            }
        case .none:
            break
        }
        OpenSSLErrorQueue.clear()
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, snapshare_verify_continue)
        return context
    }

    /// Creates the SSL_CTX with the settings servers and clients share, wrapped at once so any later throw frees it.
    private static func make(
        method: OpaquePointer?, version: TLSVersion, trust: Trust
    ) throws(TLSError) -> TLSContext {
        OpenSSLErrorQueue.clear()
        guard let ctx = SSL_CTX_new(method) else {
            throw TLSError.drainingErrorQueue(.internal, "SSL_CTX_new failed")
        }
        let context = TLSContext(handle: ctx, trust: trust)
        guard snapshare_SSL_CTX_set_min_proto_version(ctx, version.openSSLValue) == 1,
            snapshare_SSL_CTX_set_max_proto_version(ctx, version.openSSLValue) == 1
        else {
            throw TLSError.drainingErrorQueue(.internal, "cannot restrict the protocol version")
        }
        guard snapshare_SSL_CTX_set1_groups_list(ctx, groups) == 1 else {
            throw TLSError.drainingErrorQueue(.internal, "cannot set key-exchange groups \(groups)")
        }
        guard SSL_CTX_set_ciphersuites(ctx, cipherSuites) == 1 else {
            throw TLSError.drainingErrorQueue(.internal, "cannot set cipher suites \(cipherSuites)")
        }
        // Partial writes keep one SSL_write call to one record's worth of work, and a moving buffer lets a retry pass
        // Swift array storage that has moved. No SSL_MODE_RELEASE_BUFFERS: it frees and reallocates the 16 KiB record
        // buffers around every record of a busy connection; a quiet one gives them back through
        // `TLSEngine.releaseIdleMemory()` instead.
        let modes = Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER)
        _ = snapshare_SSL_CTX_set_mode(ctx, modes)
        return context
    }

    /// Fails with a `.configuration` error naming the file when it is missing or unreadable.
    private static func requireReadableFile(_ path: String, role: String) throws(TLSError) {
        do { try FileSystem.checkReadable(path) } catch {
            throw TLSError(kind: .configuration, summary: "cannot read \(role) file \(path): \(error.reason)")
        }
    }
}
