import Crypto
import Imaging

/// Checks a fetched photo and makes its thumbnail: a JPEG no larger than 120x90 with the photo's
/// aspect ratio (a smaller photo keeps its own size; thumbnails are never enlarged).
enum Thumbnail {
    static let maximumWidth = 120
    static let maximumHeight = 90
    static let jpegQuality = 80

    /// The photo's bytes as stored: validated against `limits` (size, header, dimensions, before
    /// any pixel is decoded), decoded, and shrunk into the thumbnail box.
    static func prepare(photoID: Int64, bytes: [UInt8], limits: ImageLimits) throws(ImageError) -> FetchedPhoto {
        let header = try limits.validate(bytes)
        let image = try ImageCodec.decode(bytes, limits: limits)
        var size = (width: image.width, height: image.height)
        if image.width > maximumWidth || image.height > maximumHeight {
            size = ImageResampler.fit(width: image.width, height: image.height, intoWidth: maximumWidth, height: maximumHeight)
        }
        let small = ImageResampler.resize(image, width: max(1, size.width), height: max(1, size.height))
        let thumbnail = try ImageCodec.encodeJPEG(small, quality: jpegQuality)
        return FetchedPhoto(
            photoID: photoID, image: bytes, imageSHA256: SHA256.hash(bytes), thumbnail: thumbnail,
            thumbnailSHA256: SHA256.hash(thumbnail), width: header.width, height: header.height)
    }
}
