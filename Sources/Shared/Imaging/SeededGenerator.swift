/// SplitMix64: a tiny, fast generator whose whole output follows from its seed. The built-in photo
/// source draws everything from it so the same place and page always give the same album; tests
/// and the load generator use it so their runs repeat. Not for anything secret (`SecureRandom`).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator seeded from several values, e.g. a rounded position and a photo index.
    public init(_ parts: UInt64...) {
        var mixed: UInt64 = 0x5EED_0F_5AAB_5A4E
        for part in parts {
            var round = SeededGenerator(seed: mixed ^ part)
            mixed = round.next()
        }
        state = mixed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in 0..<1 with 53 random bits.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8]()
        result.reserveCapacity(count)
        while result.count < count {
            var word = next()
            for _ in 0..<min(8, count - result.count) {
                result.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return result
    }
}
