import CImageCodec
import Wire

/// PNG and JPEG decoding and encoding, through libpng and libjpeg in the CImageCodec target.
///
/// Decoding always validates first (size, header, dimensions), so a decompression bomb is
/// refused before the C libraries see it; the C side checks the same limits again against what
/// the library itself reads, before allocating pixels.
///
/// Every PNG comes out as 8-bit RGB: grey and palette are expanded, 16-bit samples reduced to
/// 8 bits, and alpha (channel or tRNS) composited over black. A gAMA chunk other than sRGB's is
/// honoured (pixels are converted to sRGB). JPEG grey is expanded to RGB and CMYK/YCCK are
/// converted without a colour profile (Adobe-marked files are taken as inverted, as Photoshop
/// writes them). 12-bit and lossless JPEGs fail with `.decodeFailed`.
public enum ImageCodec {
    /// Validates `bytes` against `limits` and decodes them to RGB8.
    public static func decode(
        _ bytes: some Collection<UInt8>,
        limits: ImageLimits = .standard
    ) throws(ImageError) -> RGBImage {
        let header = try limits.validate(bytes)
        var output = snapshare_rgb_image()
        let (code, message) = read(
            bytes, header, limits, into: &output,
            png: snapshare_png_decode, jpeg: snapshare_jpeg_decode)
        defer { snapshare_image_free(output.pixels) }
        guard code == Int32(SNAPSHARE_IMAGE_OK), let pixels = output.pixels else {
            throw decodeError(code: code, message: message, header: header, limits: limits)
        }
        try check(width: output.width, height: output.height, against: header)
        let copy = Array(UnsafeBufferPointer(start: pixels, count: header.width * header.height * 3))
        return RGBImage(width: header.width, height: header.height, pixels: copy)
    }

    /// Validates `bytes` against `limits`, then reads the whole image without keeping its pixels:
    /// every row (one row in memory), every PNG CRC through IEND, every JPEG scan through EOI.
    /// What passes, `decode` decodes; for a server that stores images it never draws, at a
    /// fraction of a decode's time and memory. Damaged or incomplete data throws `.truncated` or
    /// `.decodeFailed` with the library's reason.
    public static func verify(
        _ bytes: some Collection<UInt8>,
        limits: ImageLimits = .standard
    ) throws(ImageError) -> ImageHeader {
        let header = try limits.validate(bytes)
        var size = snapshare_image_size()
        let (code, message) = read(
            bytes, header, limits, into: &size,
            png: snapshare_png_verify, jpeg: snapshare_jpeg_verify)
        guard code == Int32(SNAPSHARE_IMAGE_OK) else {
            throw decodeError(code: code, message: message, header: header, limits: limits)
        }
        try check(width: size.width, height: size.height, against: header)
        return header
    }

    /// Encodes `image` as an 8-bit RGB PNG (lossless).
    public static func encodePNG(_ image: RGBImage) throws(ImageError) -> [UInt8] {
        try encode(image) { pixels, output, count, message, capacity in
            snapshare_png_encode(pixels, UInt32(image.width), UInt32(image.height), output, count, message, capacity)
        }
    }

    /// Encodes `image` as a JPEG; `quality` is clamped to 1...100, chroma is subsampled 4:2:0.
    public static func encodeJPEG(
        _ image: RGBImage,
        quality: Int = 85,
        progressive: Bool = false
    ) throws(ImageError) -> [UInt8] {
        let quality = Int32(min(max(quality, 1), 100))
        return try encode(image) { pixels, output, count, message, capacity in
            snapshare_jpeg_encode(
                pixels, UInt32(image.width), UInt32(image.height), quality, progressive ? 1 : 0,
                output, count, message, capacity
            )
        }
    }

    // MARK: Plumbing

    /// A C read of a whole image from memory: bytes, count, limits, output, message, capacity.
    private typealias ReadCall<Output> = (
        UnsafePointer<UInt8>?, Int, UnsafePointer<snapshare_image_limits>, UnsafeMutablePointer<Output>,
        UnsafeMutablePointer<CChar>, Int
    ) -> Int32

    /// Runs the read for `header`'s format over `bytes` into `output`; returns its code and message.
    private static func read<Output>(
        _ bytes: some Collection<UInt8>, _ header: ImageHeader, _ limits: ImageLimits, into output: inout Output,
        png: ReadCall<Output>, jpeg: ReadCall<Output>
    ) -> (Int32, String) {
        var cLimits = cLimits(limits)
        let call = header.format == .png ? png : jpeg
        return withContiguousBytes(bytes) { buffer in
            withMessageBuffer { message, capacity in
                call(buffer.baseAddress, buffer.count, &cLimits, &output, message, capacity)
            }
        }
    }

    /// The header and the library read the same fields; disagreeing means a parser bug.
    private static func check(width: UInt32, height: UInt32, against header: ImageHeader) throws(ImageError) {
        guard Int(width) == header.width, Int(height) == header.height else {
            throw .decodeFailed("read \(width)x\(height), header said \(header.width)x\(header.height)")
        }
    }

    private typealias EncodeCall = (
        UnsafePointer<UInt8>?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>, Int
    ) -> Int32

    private static func encode(_ image: RGBImage, call: EncodeCall) throws(ImageError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw .encodeFailed("the image is empty") }
        guard image.width <= Int(UInt32.max), image.height <= Int(UInt32.max) else {
            throw .encodeFailed("the image is too large to encode")
        }
        let result: Result<[UInt8], ImageError> = image.pixels.withUnsafeBufferPointer { pixels in
            var output: UnsafeMutablePointer<UInt8>?
            var count = 0
            let (code, message) = withMessageBuffer { message, capacity in
                call(pixels.baseAddress, &output, &count, message, capacity)
            }
            defer { snapshare_image_free(output) }
            guard code == Int32(SNAPSHARE_IMAGE_OK), let output else { return .failure(.encodeFailed(message)) }
            return .success(Array(UnsafeBufferPointer(start: output, count: count)))
        }
        return try result.get()
    }

    /// The limits as the C side takes them.
    private static func cLimits(_ limits: ImageLimits) -> snapshare_image_limits {
        snapshare_image_limits(
            max_width: UInt32(clamping: limits.maxWidth),
            max_height: UInt32(clamping: limits.maxHeight),
            max_pixels: UInt64(clamping: limits.maxPixels)
        )
    }

    private static func decodeError(code: Int32, message: String, header: ImageHeader, limits: ImageLimits) -> ImageError {
        switch code {
        case Int32(SNAPSHARE_IMAGE_TRUNCATED):
            .truncated
        case Int32(SNAPSHARE_IMAGE_TOO_LARGE):
            .dimensionsTooLarge(width: header.width, height: header.height, limit: limits)
        default:
            .decodeFailed(message.isEmpty ? "error \(code)" : message)
        }
    }

    /// Runs `body` with a zeroed C message buffer and returns its result and the message.
    private static func withMessageBuffer(
        _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32
    ) -> (Int32, String) {
        let capacity = Int(SNAPSHARE_IMAGE_MESSAGE_CAPACITY)
        var storage = [CChar](repeating: 0, count: capacity)
        let code = storage.withUnsafeMutableBufferPointer { body($0.baseAddress!, capacity) }
        let bytes = storage.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return (code, String(decoding: bytes, as: UTF8.self))
    }

    /// Gives C a contiguous view of any byte collection, copying only when it has none.
    private static func withContiguousBytes<R>(
        _ bytes: some Collection<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
        return Array(bytes).withUnsafeBufferPointer(body)
    }
}
