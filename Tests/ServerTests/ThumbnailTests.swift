import Crypto
import Imaging
import Testing

@testable import Server

@Suite("Thumbnails")
struct ThumbnailTests {
    @Test("a large photo gets a JPEG thumbnail within 120x90 with its aspect ratio")
    func largePhotoIsShrunk() throws {
        let photo = try ImageCodec.encodePNG(RGBImage(width: 640, height: 480, color: .init(red: 200, green: 30, blue: 30)))
        let prepared = try Thumbnail.prepare(photoID: 1, bytes: photo, limits: .standard)
        let header = try ImageHeader.parse(prepared.thumbnail)
        #expect(header.format == .jpeg && header.width == 120 && header.height == 90)
        #expect(prepared.width == 640 && prepared.height == 480 && prepared.image == photo)
        #expect(prepared.imageSHA256 == SHA256.hash(photo) && prepared.thumbnailSHA256 == SHA256.hash(prepared.thumbnail))
    }

    @Test("a small photo is not enlarged")
    func smallPhotoKeepsItsSize() throws {
        let photo = try ImageCodec.encodePNG(RGBImage(width: 40, height: 30, color: .white))
        let header = try ImageHeader.parse(Thumbnail.prepare(photoID: 1, bytes: photo, limits: .standard).thumbnail)
        #expect(header.width == 40 && header.height == 30)
    }

    @Test("bytes that are not an image, or are over the limits, are refused before decoding")
    func badBytesAreRefused() throws {
        #expect(throws: ImageError.notAnImage) { try Thumbnail.prepare(photoID: 1, bytes: Array("<html>".utf8), limits: .standard) }
        let photo = try ImageCodec.encodePNG(RGBImage(width: 64, height: 64, color: .black))
        let tight = ImageLimits(maxBytes: 1 << 20, maxWidth: 32, maxHeight: 32, maxPixels: 1024)
        #expect(throws: ImageError.self) { try Thumbnail.prepare(photoID: 1, bytes: photo, limits: tight) }
    }
}
