import COpenSSL

/// SHA-256 digests through libcrypto, and the lowercase hex form used to show them.
public enum SHA256 {
    /// The length of a SHA-256 digest in bytes.
    public static let byteCount = 32

    /// Returns the SHA-256 digest of `bytes`.
    public static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0)) }) {
            return digest
        }
        return Array(bytes).withUnsafeBytes { hash($0) }
    }

    /// Returns the SHA-256 digest of the bytes in `buffer`.
    public static func hash(_ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        let status = digest.withUnsafeMutableBufferPointer { output in
            EVP_Digest(buffer.baseAddress, buffer.count, output.baseAddress, &length, EVP_sha256(), nil)
        }
        // EVP_Digest only fails on allocation failure or a missing provider: nothing a caller can recover from.
        precondition(status == 1 && length == UInt32(byteCount), "EVP_Digest(SHA-256) failed")
        return digest
    }

    /// Returns `bytes` as lowercase hexadecimal, two digits per byte.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
