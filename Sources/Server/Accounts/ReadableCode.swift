import Crypto

/// Secrets a person reads out or types: groups of four characters from an alphabet without
/// look-alikes (no 0/O, 1/l/I), about 20 bits a group. One-time passwords have three groups,
/// class codes two (a class code is throttled and shared by a class, not a key to an account).
enum ReadableCode {
    static func make(groups: Int) -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        // Rejection sampling keeps every character equally likely (256 is not a multiple of 31).
        let limit = UInt8(256 - 256 % alphabet.count)
        var letters: [Character] = []
        while letters.count < groups * 4 {
            for byte in SecureRandom.bytes(groups * 4) where byte < limit && letters.count < groups * 4 {
                letters.append(alphabet[Int(byte) % alphabet.count])
            }
        }
        return stride(from: 0, to: letters.count, by: 4).map { String(letters[$0..<$0 + 4]) }.joined(separator: "-")
    }
}
