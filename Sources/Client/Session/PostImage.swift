import Foundation
import Imaging

/// Makes a picture fit the server's limits before it is posted, as phone photo apps do: a photo
/// too large in bytes, width, height or pixels is decoded, scaled down with its aspect ratio
/// kept, and re-encoded as JPEG; one that fits goes as it is, byte for byte.
enum PostImage {
    /// What was done to the picture, for the message after posting.
    struct Prepared: Sendable {
        var bytes: [UInt8]
        /// Set when the picture was shrunk: its size before, and after.
        var shrunk: (from: (width: Int, height: Int, bytes: Int), to: (width: Int, height: Int))?
    }

    /// The largest picture the client will decode to shrink it: 16384 pixels a side and 100
    /// megapixels (a 108 MP phone photo is refused), 300 MB of pixels at most.
    static let shrinkable = ImageLimits(maxBytes: 64 << 20, maxWidth: 16384, maxHeight: 16384, maxPixels: 100_000_000)

    /// `bytes` as they are when they fit `limits` (by header; the server checks the rest), else
    /// shrunk to fit. Only what cannot be read is refused.
    static func prepare(_ bytes: [UInt8], limits: ImageLimits) throws(ClientError) -> Prepared {
        let header: ImageHeader
        do { header = try ImageHeader.parse(bytes) } catch {
            throw ClientError(.rejected, "this is not a PNG or JPEG picture (\(error.description))")
        }
        let fits =
            bytes.count <= limits.maxBytes && header.width <= limits.maxWidth && header.height <= limits.maxHeight
            && header.width * header.height <= limits.maxPixels
        if fits { return Prepared(bytes: bytes, shrunk: nil) }
        let image: RGBImage
        do { image = try ImageCodec.decode(bytes, limits: shrinkable) } catch {
            throw ClientError(.rejected, "the picture cannot be read to shrink it: \(error.description)")
        }
        var (width, height) = target(width: image.width, height: image.height, limits: limits)
        // Smaller and at lower quality until the file fits too; a photo rarely needs a second try.
        for attempt in 0..<8 {
            let scaled = ImageResampler.resize(image, width: width, height: height)
            let quality = attempt == 0 ? 85 : 75
            let encoded: [UInt8]
            do { encoded = try ImageCodec.encodeJPEG(scaled, quality: quality) } catch {
                throw ClientError(.local, "cannot re-encode the picture: \(error.description)")
            }
            if encoded.count <= limits.maxBytes {
                return Prepared(bytes: encoded, shrunk: ((header.width, header.height, bytes.count), (width, height)))
            }
            let ratio = (Double(limits.maxBytes) / Double(encoded.count)).squareRoot() * 0.95
            width = max(1, Int(Double(width) * ratio))
            height = max(1, Int(Double(height) * ratio))
        }
        throw ClientError(.rejected, "the picture could not be shrunk below \(ByteCount.describe(limits.maxBytes))")
    }

    /// The largest size with the picture's aspect ratio inside the dimension and pixel limits.
    static func target(width: Int, height: Int, limits: ImageLimits) -> (width: Int, height: Int) {
        var scale = min(1, Double(limits.maxWidth) / Double(width), Double(limits.maxHeight) / Double(height))
        let pixels = Double(width) * Double(height) * scale * scale
        if pixels > Double(limits.maxPixels) { scale *= (Double(limits.maxPixels) / pixels).squareRoot() }
        return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }
}
