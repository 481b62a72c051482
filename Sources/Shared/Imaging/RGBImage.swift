/// Decoded pixels: 8-bit RGB, row-major, top row first, no padding between rows.
public struct RGBImage: Sendable, Equatable {
    /// One pixel's colour.
    public struct Color: Sendable, Hashable {
        public var red: UInt8
        public var green: UInt8
        public var blue: UInt8

        /// A colour from its three 8-bit channels.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// 0, 0, 0.
        public static let black = Color(red: 0, green: 0, blue: 0)
        /// 255, 255, 255.
        public static let white = Color(red: 255, green: 255, blue: 255)
    }

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes: R, G, B for each pixel.
    public private(set) var pixels: [UInt8]

    /// Wraps existing pixels; `pixels.count` must be `width * height * 3`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative image size")
        precondition(pixels.count == width * height * 3, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour.
    public init(width: Int, height: Int, color: Color) {
        precondition(width >= 0 && height >= 0, "negative image size")
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for offset in stride(from: 0, to: pixels.count, by: 3) {
            pixels[offset] = color.red
            pixels[offset + 1] = color.green
            pixels[offset + 2] = color.blue
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The pixel at column `x`, row `y` (both zero-based, `y` from the top).
    public subscript(x: Int, y: Int) -> Color {
        get {
            let offset = offset(x: x, y: y)
            return Color(red: pixels[offset], green: pixels[offset + 1], blue: pixels[offset + 2])
        }
        set {
            let offset = offset(x: x, y: y)
            pixels[offset] = newValue.red
            pixels[offset + 1] = newValue.green
            pixels[offset + 2] = newValue.blue
        }
    }

    private func offset(x: Int, y: Int) -> Int {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside the image")
        return (y * width + x) * 3
    }
}

extension RGBImage {
    /// A square of random pixels, which no codec compresses: a PNG of it is about `side² × 3`
    /// bytes. For load tests and tests that need big images; the same seed gives the same image.
    public static func noise(side: Int, seed: UInt64) -> RGBImage {
        var random = SeededGenerator(seed: seed)
        return RGBImage(width: side, height: side, pixels: random.bytes(side * side * 3))
    }
}
