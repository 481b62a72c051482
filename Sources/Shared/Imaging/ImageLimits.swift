/// How large an image Snapshare will look at: file size first, then declared dimensions.
///
/// The dimension check is the decompression-bomb guard: a small file may declare a huge
/// canvas, so dimensions are read from the header and refused before any pixel is decoded.
public struct ImageLimits: Sendable, Equatable {
    /// Largest accepted file, in bytes.
    public var maxBytes: Int
    /// Largest accepted width, in pixels.
    public var maxWidth: Int
    /// Largest accepted height, in pixels.
    public var maxHeight: Int
    /// Largest accepted width x height.
    public var maxPixels: Int

    /// Limits with defaults sized for phone photos: 5 MiB, 8192x8192, 40 megapixels.
    public init(
        maxBytes: Int = 5 * 1024 * 1024,
        maxWidth: Int = 8192,
        maxHeight: Int = 8192,
        maxPixels: Int = 40_000_000
    ) {
        self.maxBytes = maxBytes
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
        self.maxPixels = maxPixels
    }

    /// The default limits.
    public static let standard = ImageLimits()

    /// Checks size, then header, then dimensions, without decoding; returns the header.
    public func validate(_ bytes: some Collection<UInt8>) throws(ImageError) -> ImageHeader {
        guard bytes.count <= maxBytes else { throw .tooManyBytes(limit: maxBytes) }
        let header = try ImageHeader.parse(bytes)
        try checkDimensions(width: header.width, height: header.height)
        return header
    }

    /// Throws `.dimensionsTooLarge` when width, height or their product is over the limits.
    public func checkDimensions(width: Int, height: Int) throws(ImageError) {
        // Both are at most 2^31 - 1 (the header parser guarantees it), so the product fits in Int.
        guard width <= maxWidth, height <= maxHeight, width * height <= maxPixels else {
            throw .dimensionsTooLarge(width: width, height: height, limit: self)
        }
    }
}
