import Imaging
import Wire

/// The image limits a server announced in its Welcome, as the client uses them.
extension Welcome {
    /// The most this client decodes whatever a server allows: 8192x8192 and 40 megapixels, that
    /// is 120 MB of pixels (and a copy) for a file that can be a few kilobytes.
    static let largestDecoded = ImageLimits.standard

    /// What this server accepts in a post (`PostImage.prepare` shrinks a picture to fit).
    var postLimits: ImageLimits {
        ImageLimits(
            maxBytes: Int(maxImageBytes), maxWidth: Int(maxImageDimension),
            maxHeight: Int(maxImageDimension), maxPixels: Int(maxImagePixels))
    }

    /// What to decode from this server: no more than it accepts from anyone (a larger image did
    /// not come through its checks), and never more than `largestDecoded`.
    var displayLimits: ImageLimits {
        let largest = Self.largestDecoded
        return ImageLimits(
            maxBytes: Int(maxImageBytes),
            maxWidth: min(Int(maxImageDimension), largest.maxWidth),
            maxHeight: min(Int(maxImageDimension), largest.maxHeight),
            maxPixels: min(Int(maxImagePixels), largest.maxPixels))
    }
}
