import Testing

@testable import Client
@testable import Imaging
@testable import Wire

/// What the client agrees to decode before it draws a snap or a photo.
@Suite struct ImageDisplayTests {
    private func welcome(dimension: UInt32, pixels: UInt32) -> Welcome {
        Welcome(
            version: 1, serverName: "test", maxFrameBytes: 6 << 20, maxFrameBytesBeforeLogin: 16_384,
            maxRequestsInFlight: 64, maxImageBytes: 5 << 20, maxImageDimension: dimension,
            maxImagePixels: pixels, idleTimeoutSeconds: 300, serverTime: 0)
    }

    /// The start of a baseline JPEG whose frame header declares `width` x `height`.
    private func jpegHeader(width: UInt16, height: UInt16) -> [UInt8] {
        [
            0xFF, 0xD8, 0xFF, 0xC0, 0x00, 17, 8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
            3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
        ]
    }

    @Test func theClientDecodesNoMoreThanItsServerAccepts() throws {
        let limits = welcome(dimension: 8192, pixels: 4096 * 4096).displayLimits
        #expect(limits.maxPixels == 4096 * 4096 && limits.maxWidth == 8192 && limits.maxBytes == 5 << 20)
        // A few bytes declaring 40 million pixels are refused from the header, before any decoding.
        #expect(throws: ImageError.dimensionsTooLarge(width: 6400, height: 6250, limit: limits)) {
            try ImageCodec.decode(jpegHeader(width: 6400, height: 6250), limits: limits)
        }
        #expect(try limits.validate(jpegHeader(width: 4032, height: 3024)).width == 4032, "a 12 MP photo is fine")
    }

    @Test func aServerThatAcceptsHugeImagesDoesNotRaiseTheClientsOwnCap() {
        let limits = welcome(dimension: 65_535, pixels: 1_000_000_000).displayLimits
        #expect(limits.maxPixels == ImageDisplay.largest.maxPixels && limits.maxWidth == ImageDisplay.largest.maxWidth)
        #expect(ImageDisplay.largest.maxPixels <= 40_000_000)
    }
}
