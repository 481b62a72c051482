import COpenSSL

/// scrypt (RFC 7914), the memory-hard key derivation for passwords, through OpenSSL's EVP_PBE_scrypt.
///
/// The cost is N (CPU and memory, a power of two), r (block size) and p (parallelism); one
/// derivation needs about 128·r·(N + p + 2) bytes. `maxMemoryBytes` is checked by OpenSSL before it
/// allocates, so parameters read from storage cannot make it take more.
public enum Scrypt {
    /// Derives `keyLength` bytes from `password` (its UTF-8) and `salt`; nil when OpenSSL refuses
    /// (parameters out of range or beyond `maxMemoryBytes`, or no memory).
    public static func deriveKey(
        password: String, salt: [UInt8], n: UInt64, r: UInt64, p: UInt64,
        keyLength: Int, maxMemoryBytes: UInt64
    ) -> [UInt8]? {
        var key = [UInt8](repeating: 0, count: keyLength)
        // A terminating zero keeps the buffer non-empty (so its address is never nil) for "".
        var passwordBytes = Array(password.utf8).map { CChar(bitPattern: $0) }
        let passwordLength = passwordBytes.count
        passwordBytes.append(0)
        defer { OPENSSL_cleanse(&passwordBytes, passwordBytes.count) }
        let status = EVP_PBE_scrypt(
            passwordBytes, passwordLength, salt, salt.count,
            n, r, p, maxMemoryBytes, &key, keyLength)
        return status == 1 ? key : nil
    }

    /// True when `password` and `salt` derive `expectedKey` with this cost. The keys are compared
    /// in constant time and the derived one is wiped before returning.
    public static func matches(
        password: String, salt: [UInt8], n: UInt64, r: UInt64, p: UInt64,
        expectedKey: [UInt8], maxMemoryBytes: UInt64
    ) -> Bool {
        guard
            var key = deriveKey(
                password: password, salt: salt, n: n, r: r, p: p,
                keyLength: expectedKey.count, maxMemoryBytes: maxMemoryBytes)
        else { return false }
        defer { OPENSSL_cleanse(&key, key.count) }
        return CRYPTO_memcmp(key, expectedKey, key.count) == 0
    }
}
