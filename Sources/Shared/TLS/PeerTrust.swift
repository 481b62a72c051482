import COpenSSL

/// Why a client accepted the server it reached, decided once its handshake is complete.
public enum PeerTrust: Sendable, Equatable {
    /// The chain and name verified against the trust file the client was given (`--ca`).
    case trustFile
    /// The chain and name verified against the system's trusted roots: a publicly trusted (or locally installed)
    /// certificate, which is never pinned.
    case system
    /// The system does not vouch for the server, but its chain and name verify against the chain's own last
    /// certificate, the anchor: the CA of a development or private deployment (or the leaf itself when the server
    /// sends it alone). The anchor's fingerprint is what a client pins, so a leaf renewed by the same CA is still
    /// the server it trusted.
    case pinnable(anchorSHA256: [UInt8], anchorIsLeaf: Bool)
}

extension PeerTrust {
    /// Decides for a client in system-or-pin mode, after a handshake the verify callback let finish: the
    /// system's verdict when it is yes, else the chain verified against its own anchor. Throws when even that
    /// fails (a name the certificate does not carry, an expired certificate, a chain that does not link up).
    static func decide(ssl: OpaquePointer, serverName: String) throws(TLSError) -> PeerTrust {
        if SSL_get_verify_result(ssl) == Int(X509_V_OK) { return .system }
        // A client's peer chain starts with the leaf; OpenSSL owns the stack and its certificates.
        guard let chain = SSL_get_peer_cert_chain(ssl), snapshare_sk_X509_num(chain) > 0,
            let leaf = snapshare_sk_X509_value(chain, 0)
        else {
            throw TLSError(kind: .handshakeFailed, summary: "server sent no certificate")
        }
        let count = snapshare_sk_X509_num(chain)
        guard let anchor = snapshare_sk_X509_value(chain, count - 1) else {
            throw TLSError(kind: .internal, summary: "the server's certificate chain could not be read")
        }
        let code = verify(leaf: leaf, chain: chain, anchor: anchor, serverName: serverName)
        guard code == X509_V_OK else { throw TLSError.verification(code: Int(code)) }
        return .pinnable(anchorSHA256: X509Certificate.sha256(of: anchor), anchorIsLeaf: count == 1)
    }

    /// Verifies `leaf` as a TLS server certificate for `serverName`, through the certificates of `chain`, against
    /// `anchor` alone (which need not be self-signed: partial chains are allowed). Returns the X509_V_ code.
    private static func verify(
        leaf: OpaquePointer, chain: OpaquePointer, anchor: OpaquePointer, serverName: String
    ) -> Int32 {
        defer { OpenSSLErrorQueue.clear() }
        guard let store = X509_STORE_new() else { return X509_V_ERR_OUT_OF_MEM }
        defer { X509_STORE_free(store) }
        guard X509_STORE_add_cert(store, anchor) == 1, let context = X509_STORE_CTX_new() else {
            return X509_V_ERR_OUT_OF_MEM
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf, chain) == 1 else { return X509_V_ERR_OUT_OF_MEM }
        let parameters = X509_STORE_CTX_get0_param(context)
        _ = X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER)
        if IPAddress.isLiteral(serverName) {
            guard X509_VERIFY_PARAM_set1_ip_asc(parameters, serverName) == 1 else { return X509_V_ERR_IP_ADDRESS_MISMATCH }
        } else {
            X509_VERIFY_PARAM_set_hostflags(parameters, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            guard X509_VERIFY_PARAM_set1_host(parameters, serverName, serverName.utf8.count) == 1 else {
                return X509_V_ERR_HOSTNAME_MISMATCH
            }
        }
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            return code == X509_V_OK ? X509_V_ERR_UNSPECIFIED : code
        }
        return X509_V_OK
    }
}
