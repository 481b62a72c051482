import Testing

@testable import Imaging

@Suite struct ImageLimitsTests {
    @Test func theDefaultsAreFiveMebibytesAnd8192SquareAndFortyMegapixels() {
        let limits = ImageLimits.standard
        #expect(limits.maxBytes == 5 * 1024 * 1024)
        #expect(limits.maxWidth == 8192 && limits.maxHeight == 8192)
        #expect(limits.maxPixels == 40_000_000)
    }

    @Test func aSamplePhotoPassesValidation() throws {
        let header = try ImageLimits.standard.validate(ImageTestSupport.fixture("09-brick.png"))
        #expect(header == ImageHeader(format: .png, width: 256, height: 256))
    }

    @Test func aSmallPNGClaiming60000SquareIsRefusedBeforeDecoding() {
        let bomb = ImageTestSupport.forgedPNG(width: 60000, height: 60000, size: 100_000)
        #expect(bomb.count <= 100_000 && bomb.count > 90_000)
        #expect(throws: ImageError.dimensionsTooLarge(width: 60000, height: 60000, limit: .standard)) {
            try ImageLimits.standard.validate(bomb)
        }
        #expect(throws: ImageError.dimensionsTooLarge(width: 60000, height: 60000, limit: .standard)) {
            try ImageCodec.decode(bomb)
        }
    }

    @Test func aJPEGFrameClaimingHugeDimensionsIsRefusedBeforeDecoding() {
        let bomb = ImageTestSupport.forgedJPEG(width: 65000, height: 65000, size: 100_000)
        #expect(throws: ImageError.dimensionsTooLarge(width: 65000, height: 65000, limit: .standard)) {
            try ImageLimits.standard.validate(bomb)
        }
        #expect(throws: ImageError.dimensionsTooLarge(width: 65000, height: 65000, limit: .standard)) {
            try ImageCodec.decode(bomb)
        }
    }

    @Test func eachDimensionLimitAndThePixelLimitApply() {
        let limits = ImageLimits(maxBytes: 1 << 20, maxWidth: 1000, maxHeight: 500, maxPixels: 200_000)
        #expect(throws: Never.self) { try limits.checkDimensions(width: 1000, height: 200) }
        #expect(throws: ImageError.self) { try limits.checkDimensions(width: 1001, height: 1) }
        #expect(throws: ImageError.self) { try limits.checkDimensions(width: 1, height: 501) }
        #expect(throws: ImageError.self) { try limits.checkDimensions(width: 1000, height: 201) }
    }

    @Test func sizeIsCheckedBeforeTheHeader() {
        let limits = ImageLimits(maxBytes: 10)
        #expect(throws: ImageError.tooManyBytes(limit: 10)) { try limits.validate([UInt8](repeating: 0x41, count: 11)) }
        #expect(throws: ImageError.notAnImage) { try limits.validate([UInt8](repeating: 0x41, count: 10)) }
    }

    @Test func everyErrorDescribesItselfForAPerson() {
        let errors: [ImageError] = [
            .notAnImage, .truncated, .tooManyBytes(limit: 5 * 1024 * 1024),
            .dimensionsTooLarge(width: 60000, height: 60000, limit: .standard),
            .decodeFailed("PNG: bad adaptive filter value"), .encodeFailed("out of memory"),
        ]
        let descriptions = errors.map(\.description)
        #expect(Set(descriptions).count == errors.count)
        #expect(descriptions[2] == "the image file is larger than 5 MiB")
        #expect(descriptions[3].contains("60000x60000") && descriptions[3].contains("8192x8192"))
    }
}
