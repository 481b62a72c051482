import COpenSSL

/// An owned `EVP_PKEY*` holding an elliptic-curve (P-256) private key.
final class ECPrivateKey: @unchecked Sendable {
    let handle: OpaquePointer

    /// Takes ownership of `handle` (one reference, released in deinit).
    init(taking handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        EVP_PKEY_free(handle)
    }

    /// Generates a fresh P-256 key.
    static func generateP256() throws(TLSError) -> ECPrivateKey {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else {
            throw TLSError.drainingErrorQueue(.internal, "EVP_PKEY_CTX_new_from_name(EC) failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
            EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
            EVP_PKEY_generate(context, &key) == 1,
            let key
        else {
            throw TLSError.drainingErrorQueue(.internal, "P-256 key generation failed")
        }
        return ECPrivateKey(taking: key)
    }

    /// Loads a PEM private key; nil when the file holds no key, throws if unreadable.
    static func load(pemFile path: String) throws(TLSError) -> ECPrivateKey? {
        try PEMFile.read(path) { PEM_read_bio_PrivateKey($0, nil, nil, nil) }.map(ECPrivateKey.init(taking:))
    }

    /// The key as unencrypted PKCS#8 PEM; it belongs in a 0600 file.
    func pem() throws(TLSError) -> [UInt8] {
        try PEMFile.encode("private key") { PEM_write_bio_PrivateKey($0, handle, nil, nil, 0, nil, nil) }
    }
}
