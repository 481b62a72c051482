import Shared

/// Images the bench posts: made on the spot, so no fixture files are needed.
enum BenchImage {
    /// A PNG of random noise (which does not compress) close to `bytes` long, the same every run.
    static func noisePNG(approximately bytes: Int, seed: UInt64 = 0) throws -> [UInt8] {
        // Noise in stored deflate blocks costs its raw size plus one filter byte per row.
        let side = max(8, Int(Double(max(bytes - 128, 192) / 3).squareRoot()))
        var random = SplitMix64(seed: 0x5EED_5A4F &+ seed)
        var pixels = [UInt8](repeating: 0, count: side * side * 3)
        for i in pixels.indices { pixels[i] = UInt8(truncatingIfNeeded: random.next()) }
        return try ImageCodec.encodePNG(RGBImage(width: side, height: side, pixels: pixels))
    }

    /// A 4x4 PNG of `shade`: filler snaps that cost the server almost nothing to store.
    static func tinyPNG(shade: UInt8 = 0x80) throws -> [UInt8] {
        try ImageCodec.encodePNG(RGBImage(width: 4, height: 4, color: .init(red: shade, green: 0x40, blue: 0xC0)))
    }
}

/// A small, fast, seeded generator (SplitMix64), so runs are repeatable.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
