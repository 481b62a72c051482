/// The CRC-32 that guards every PNG chunk (ISO 3309 / ITU-T V.42, as zlib's crc32).
enum PNGChunkCRC {
    /// One entry per byte value, reflected polynomial 0xEDB88320.
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    /// The CRC of `bytes`, continuing from `crc` (pass the previous result to chain).
    static func checksum(_ bytes: some Sequence<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        for byte in bytes {
            value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
        }
        return ~value
    }
}
