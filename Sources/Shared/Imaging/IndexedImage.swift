/// A picture of at most 256 colours: each pixel is an index into `palette`, row-major, top row
/// first, as sixel and other paletted outputs want it (`RGBImage.quantized` makes one).
public struct IndexedImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The colours, at most 256; no two alike.
    public let palette: [RGBImage.Color]
    /// `width * height` indices into `palette`.
    public let indices: [UInt8]

    /// Wraps existing indices; every one must be below `palette.count`.
    public init(width: Int, height: Int, palette: [RGBImage.Color], indices: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative image size")
        precondition(indices.count == width * height, "index count does not match the size")
        precondition(palette.count <= 256, "more than 256 colours")
        precondition(indices.allSatisfy { Int($0) < palette.count }, "an index is outside the palette")
        self.width = width
        self.height = height
        self.palette = palette
        self.indices = indices
    }

    /// The pixels in full colour.
    public var rgb: RGBImage {
        var pixels = [UInt8](repeating: 0, count: indices.count * 3)
        for (pixel, index) in indices.enumerated() {
            let color = palette[Int(index)]
            pixels[pixel * 3] = color.red
            pixels[pixel * 3 + 1] = color.green
            pixels[pixel * 3 + 2] = color.blue
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}
