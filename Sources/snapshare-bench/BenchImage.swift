import Imaging

/// Images the bench posts: made on the spot, so no fixture files are needed.
enum BenchImage {
    /// A PNG of random noise (which does not compress) close to `bytes` long, the same every run.
    static func noisePNG(approximately bytes: Int, seed: UInt64 = 0) throws -> [UInt8] {
        // Noise in stored deflate blocks costs its raw size plus one filter byte per row.
        let side = max(8, Int(Double(max(bytes - 128, 192) / 3).squareRoot()))
        return try ImageCodec.encodePNG(RGBImage.noise(side: side, seed: 0x5EED_5A4F &+ seed))
    }

    /// A 4x4 PNG of `shade`: filler snaps that cost the server almost nothing to store.
    static func tinyPNG(shade: UInt8 = 0x80) throws -> [UInt8] {
        try ImageCodec.encodePNG(RGBImage(width: 4, height: 4, color: .init(red: shade, green: 0x40, blue: 0xC0)))
    }
}
