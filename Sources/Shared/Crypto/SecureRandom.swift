import COpenSSL

/// Unpredictable bytes from OpenSSL's CSPRNG, for serial numbers, tokens and names.
public enum SecureRandom {
    /// Returns `count` cryptographically secure random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "random byte count out of range: \(count)")
        var output = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return output }
        let status = output.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        // A CSPRNG that cannot seed itself must stop the process: carrying on would hand out guessable secrets.
        precondition(status == 1, "RAND_bytes failed")
        return output
    }

    /// Returns 32 random bytes as base64url without padding (43 characters), e.g. for session tokens.
    public static func token() -> String {
        base64URL(bytes(32))
    }

    /// Encodes `bytes` as base64url (RFC 4648 section 5) without `=` padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let first = UInt32(bytes[index])
            let second = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let third = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let group = first << 16 | second << 8 | third
            text.append(alphabet[Int(group >> 18 & 0x3f)])
            text.append(alphabet[Int(group >> 12 & 0x3f)])
            if remaining > 1 { text.append(alphabet[Int(group >> 6 & 0x3f)]) }
            if remaining > 2 { text.append(alphabet[Int(group & 0x3f)]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }
}
