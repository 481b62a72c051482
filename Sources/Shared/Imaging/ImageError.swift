/// Why image bytes were refused or could not be produced.
///
/// The cases are stable: handlers map them to wire errors and the client to messages.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a PNG or JPEG (or a header so malformed it cannot be one).
    case notAnImage
    /// The bytes stop before the header (or, when decoding, the image data) is complete.
    case truncated
    /// The file is larger than `limit` bytes; refused before looking inside.
    case tooManyBytes(limit: Int)
    /// The header declares dimensions over the limits; refused before any decoding.
    case dimensionsTooLarge(width: Int, height: Int, limit: ImageLimits)
    /// The codec rejected the data; the message comes from libpng or libjpeg.
    case decodeFailed(String)
    /// The codec could not encode the pixels.
    case encodeFailed(String)

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .notAnImage:
            "the file is not a PNG or JPEG image"
        case .truncated:
            "the image file is incomplete"
        case .tooManyBytes(let limit):
            "the image file is larger than \(Self.formatBytes(limit))"
        case .dimensionsTooLarge(let width, let height, let limit):
            "the image is \(width)x\(height) pixels; the limit is \(limit.maxWidth)x\(limit.maxHeight) "
                + "and \(limit.maxPixels) pixels in total"
        case .decodeFailed(let message):
            "the image could not be decoded: \(message)"
        case .encodeFailed(let message):
            "the image could not be encoded: \(message)"
        }
    }

    private static func formatBytes(_ count: Int) -> String {
        if count >= 1024 * 1024, count % (1024 * 1024) == 0 { return "\(count / (1024 * 1024)) MiB" }
        if count >= 1024, count % 1024 == 0 { return "\(count / 1024) KiB" }
        return "\(count) bytes"
    }
}
