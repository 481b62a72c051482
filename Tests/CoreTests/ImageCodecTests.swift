import Imaging
import Testing

@testable import Imaging

@Suite struct ImageCodecTests {
    // MARK: Round trips

    @Test func aPNGRoundTripIsExact() throws {
        let image = ImageTestSupport.gradient(width: 31, height: 17)
        let png = try ImageCodec.encodePNG(image)
        #expect(try ImageHeader.parse(png) == ImageHeader(format: .png, width: 31, height: 17))
        #expect(try ImageCodec.decode(png) == image)
    }

    @Test func aSamplePhotoDecodesAndSurvivesReencodingExactly() throws {
        let photo = try ImageCodec.decode(ImageTestSupport.fixture("04-rocket.png"))
        #expect(photo.width == 256 && photo.height == 171 && photo.pixels.count == 256 * 171 * 3)
        #expect(Set(photo.pixels).count > 100) // a photo, not a blank
        #expect(try ImageCodec.decode(ImageCodec.encodePNG(photo)) == photo)
    }

    @Test(arguments: [false, true])
    func aJPEGRoundTripIsClose(progressive: Bool) throws {
        let image = ImageTestSupport.gradient(width: 64, height: 48)
        let jpeg = try ImageCodec.encodeJPEG(image, quality: 90, progressive: progressive)
        let decoded = try ImageCodec.decode(jpeg)
        #expect(decoded.width == 64 && decoded.height == 48)
        let errors = zip(image.pixels, decoded.pixels).map { abs(Int($0) - Int($1)) }
        #expect(Double(errors.reduce(0, +)) / Double(errors.count) < 2.0)
        #expect(errors.max()! < 24)
    }

    @Test func lowerJPEGQualityGivesSmallerFiles() throws {
        let photo = try ImageCodec.decode(ImageTestSupport.fixture("04-rocket.png"))
        let small = try ImageCodec.encodeJPEG(photo, quality: 30)
        let large = try ImageCodec.encodeJPEG(photo, quality: 95)
        #expect(small.count < large.count)
        // Out-of-range qualities are clamped rather than refused.
        #expect(try ImageCodec.decode(ImageCodec.encodeJPEG(photo, quality: 500)).width == 256)
        #expect(try ImageCodec.decode(ImageCodec.encodeJPEG(photo, quality: -3)).width == 256)
    }

    @Test func anEmptyImageCannotBeEncoded() {
        let empty = RGBImage(width: 0, height: 0, pixels: [])
        #expect(throws: ImageError.self) { try ImageCodec.encodePNG(empty) }
        #expect(throws: ImageError.self) { try ImageCodec.encodeJPEG(empty) }
    }

    // MARK: PNG variants come out as RGB8

    @Test func grayPNGsExpandToRGB() throws {
        let gray8 = ImageTestSupport.png(width: 2, height: 1, bitDepth: 8, colourType: 0, rows: [[0, 200]])
        #expect(try ImageCodec.decode(gray8).pixels == [0, 0, 0, 200, 200, 200])
        let gray1 = ImageTestSupport.png(width: 4, height: 1, bitDepth: 1, colourType: 0, rows: [[0b1010_0000]])
        #expect(try ImageCodec.decode(gray1).pixels == [255, 255, 255, 0, 0, 0, 255, 255, 255, 0, 0, 0])
    }

    @Test func palettePNGsExpandAndTransparentEntriesBecomeBlack() throws {
        let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255]
        let plain = ImageTestSupport.png(
            width: 3, height: 1, bitDepth: 8, colourType: 3, rows: [[2, 1, 0]],
            chunksBeforeData: [("PLTE", palette)]
        )
        #expect(try ImageCodec.decode(plain).pixels == [0, 0, 255, 0, 255, 0, 255, 0, 0])
        let transparent = ImageTestSupport.png(
            width: 3, height: 1, bitDepth: 8, colourType: 3, rows: [[2, 1, 0]],
            chunksBeforeData: [("PLTE", palette), ("tRNS", [255, 0, 255])]
        )
        #expect(try ImageCodec.decode(transparent).pixels == [0, 0, 255, 0, 0, 0, 255, 0, 0])
    }

    @Test func alphaIsCompositedOverBlack() throws {
        let rgba = ImageTestSupport.png(
            width: 2, height: 1, bitDepth: 8, colourType: 6, rows: [[10, 20, 30, 255, 200, 100, 50, 0]]
        )
        #expect(try ImageCodec.decode(rgba).pixels == [10, 20, 30, 0, 0, 0])
        let grayAlpha = ImageTestSupport.png(width: 2, height: 1, bitDepth: 8, colourType: 4, rows: [[90, 255, 90, 0]])
        #expect(try ImageCodec.decode(grayAlpha).pixels == [90, 90, 90, 0, 0, 0])
    }

    @Test func sixteenBitSamplesKeepTheirHighByte() throws {
        let rgb16 = ImageTestSupport.png(
            width: 1, height: 1, bitDepth: 16, colourType: 2, rows: [[0xAB, 0xAB, 0x12, 0x12, 0xFF, 0xFF]]
        )
        let decoded = try ImageCodec.decode(rgb16).pixels
        #expect(decoded == [0xAB, 0x12, 0xFF])
    }

    @Test func anInterlacedPNGDecodes() throws {
        // At 1x1 only Adam7's first pass holds a pixel, so the data is the same as without interlace.
        let interlaced = ImageTestSupport.png(width: 1, height: 1, bitDepth: 8, colourType: 2, interlace: 1, rows: [[7, 8, 9]])
        #expect(try ImageCodec.decode(interlaced).pixels == [7, 8, 9])
    }

    @Test func aPNGWithBrokenImageDataFailsToDecode() throws {
        var png = ImageTestSupport.png(
            width: 2, height: 2, bitDepth: 8, colourType: 2, rows: [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
        // Break the zlib header inside IDAT (offset: signature 8 + IHDR 25 + IDAT length/type 8).
        png[41] = 0x00
        png[42] = 0x00
        #expect {
            try ImageCodec.decode(png)
        } throws: { error in
            guard case .decodeFailed(let message) = error as? ImageError else { return false }
            return message.hasPrefix("PNG: ")
        }
    }

    // MARK: JPEG variants

    @Test func aGrayJPEGExpandsToRGB() throws {
        let image = try ImageCodec.decode(ImageTestSupport.fixture("gray-64-192-16x8.jpg"))
        #expect(image.width == 16 && image.height == 8)
        let left = image[2, 4]
        let right = image[13, 4]
        #expect(left.red == left.green && left.green == left.blue && abs(Int(left.red) - 64) <= 2)
        #expect(right.red == right.blue && abs(Int(right.red) - 192) <= 2)
    }

    @Test func anAdobeCMYKJPEGConvertsToRGB() throws {
        let image = try ImageCodec.decode(ImageTestSupport.fixture("cmyk-red-blue-16x8.jpg"))
        let left = image[2, 4]
        let right = image[13, 4]
        #expect(left.red > 245 && left.green < 10 && left.blue < 10)
        #expect(right.red < 10 && right.green < 10 && right.blue > 245)
    }

    @Test func aJPEGWithTooManyProgressiveScansIsRefused() throws {
        let jpeg = try ImageCodec.encodeJPEG(ImageTestSupport.gradient(width: 16, height: 16), progressive: true)
        // Repeat the last scan (from its SOS to EOI) until the file holds well over 100 scans.
        let lastScan = try #require(jpeg.indices.dropLast().last { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let scan = Array(jpeg[lastScan..<(jpeg.count - 2)])
        var bomb = Array(jpeg[..<(jpeg.count - 2)])
        for _ in 0..<150 { bomb += scan }
        bomb += [0xFF, 0xD9]
        #expect {
            try ImageCodec.decode(bomb)
        } throws: { error in
            guard case .decodeFailed(let message) = error as? ImageError else { return false }
            return message.contains("scans")
        }
    }

    // MARK: Damaged input

    @Test(arguments: ["png", "jpeg", "progressive"])
    func everyPrefixOfAFileFailsCleanlyOrDecodesTheWholeImage(kind: String) throws {
        let bytes = try ImageTestSupport.encoded(ImageTestSupport.gradient(width: 12, height: 10), as: kind)
        let full = try ImageCodec.decode(bytes)
        var truncations = 0
        for length in 0..<bytes.count {
            do {
                // Only a file missing just its end marker may still decode, and then completely.
                let decoded = try ImageCodec.decode(bytes[..<length])
                #expect(decoded == full, "prefix \(length)")
                #expect(length >= bytes.count - 12, "prefix \(length)")
            } catch .truncated {
                truncations += 1
            } catch .notAnImage, .decodeFailed {
                continue
            } catch {
                Issue.record("prefix \(length): unexpected \(error)")
            }
        }
        #expect(truncations > bytes.count / 2)
    }

    @Test func randomBytesNeverCrashTheDecoder() {
        for bytes in ImageTestSupport.randomInputs(count: 1500, seed: 0xD0C0DE) {
            if let image = try? ImageCodec.decode(bytes) {
                #expect(image.pixels.count == image.width * image.height * 3)
            }
        }
    }

    @Test(arguments: ["png", "jpeg", "progressive"])
    func damagedFilesNeverCrashTheDecoder(kind: String) throws {
        let original = try ImageTestSupport.encoded(ImageTestSupport.gradient(width: 24, height: 16), as: kind)
        let limits = ImageLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 20)
        for bytes in ImageTestSupport.damagedCopies(of: original, count: 400, seed: 0xBAD5EED) {
            if let decoded = try? ImageCodec.decode(bytes, limits: limits) {
                #expect(decoded.pixels.count == decoded.width * decoded.height * 3)
            }
        }
    }

    // MARK: Verification without keeping pixels

    /// A photo as baseline JPEG, progressive JPEG and PNG: the files verification must pass.
    private func wholeFiles() throws -> [(String, [UInt8])] {
        let photo = try ImageCodec.decode(ImageTestSupport.fixture("04-rocket.png"))
        return [
            ("png", try ImageTestSupport.fixture("04-rocket.png")),
            ("jpeg", try ImageCodec.encodeJPEG(photo)),
            ("progressive", try ImageCodec.encodeJPEG(photo, progressive: true)),
        ]
    }

    @Test func wholePNGsAndJPEGsPassVerificationWithTheirHeader() throws {
        for (kind, bytes) in try wholeFiles() {
            #expect(try ImageCodec.verify(bytes) == ImageHeader.parse(bytes), "\(kind)")
        }
        for name in ["09-brick.png", "gray-64-192-16x8.jpg", "cmyk-red-blue-16x8.jpg"] {
            let bytes = try ImageTestSupport.fixture(name)
            #expect(try ImageCodec.verify(bytes) == ImageHeader.parse(bytes), "\(name)")
        }
        let variants = [
            ImageTestSupport.png(width: 4, height: 1, bitDepth: 1, colourType: 0, rows: [[0b1010_0000]]),
            ImageTestSupport.png(
                width: 2, height: 1, bitDepth: 8, colourType: 3, rows: [[1, 0]],
                chunksBeforeData: [("PLTE", [255, 0, 0, 0, 255, 0])]),
            ImageTestSupport.png(width: 1, height: 1, bitDepth: 16, colourType: 2, rows: [[1, 2, 3, 4, 5, 6]]),
            ImageTestSupport.png(width: 1, height: 1, bitDepth: 8, colourType: 2, interlace: 1, rows: [[7, 8, 9]]),
            try ImageCodec.encodePNG(ImageTestSupport.gradient(width: 33, height: 21)),
        ]
        for png in variants {
            #expect(try ImageCodec.verify(png) == ImageHeader.parse(png))
        }
    }

    @Test func anInterlacedPNGPassesVerificationAndDecodesToTheSamePixels() throws {
        let image = ImageTestSupport.gradient(width: 37, height: 23)
        let interlaced = ImageTestSupport.png(
            width: 37, height: 23, bitDepth: 8, colourType: 2, interlace: 1,
            rows: ImageTestSupport.adam7Rows(image))
        #expect(try ImageCodec.verify(interlaced) == ImageHeader(format: .png, width: 37, height: 23))
        #expect(try ImageCodec.decode(interlaced) == image)
        #expect(throws: ImageError.self, "one pass short") {
            try ImageCodec.verify(
                ImageTestSupport.png(
                    width: 37, height: 23, bitDepth: 8, colourType: 2, interlace: 1, rows: ImageTestSupport.adam7Rows(image).dropLast(3)))
        }
    }

    @Test(arguments: ["png", "jpeg", "progressive"])
    func everyPrefixOfAFileFailsVerificationEvenOneMissingOnlyItsEndMarker(kind: String) throws {
        let bytes = try #require(try wholeFiles().first { $0.0 == kind }?.1)
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)).map({ $0 }) + [bytes.count - 1] {
            #expect(throws: ImageError.self, "prefix \(length) of \(bytes.count)") { try ImageCodec.verify(bytes[..<length]) }
        }
    }

    @Test func aPNGWithAValidHeaderAndGarbageDataFailsVerification() throws {
        let png = try ImageTestSupport.fixture("04-rocket.png")
        var random = SeededGenerator(seed: 0x6A7BA6E)
        // The signature and IHDR stay: the header alone says nothing is wrong.
        let garbage = Array(png.prefix(33)) + random.bytes(png.count - 33)
        #expect(try ImageHeader.parse(garbage) == ImageHeader.parse(png))
        #expect(throws: ImageError.self) { try ImageCodec.verify(garbage) }
    }

    @Test func aBadCRCFailsVerificationInImageDataAndInAnAncillaryChunk() throws {
        var png = ImageTestSupport.png(
            width: 2, height: 2, bitDepth: 8, colourType: 2, rows: [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
        // The IDAT's CRC: the 4 bytes before IEND's 12.
        png[png.count - 13] ^= 0x01
        #expect {
            try ImageCodec.verify(png)
        } throws: { error in
            guard case .decodeFailed(let message) = error as? ImageError else { return false }
            return message.contains("CRC")
        }
        let comment = Array("Comment\u{0}hello".utf8)
        var text = ImageTestSupport.png(
            width: 1, height: 1, bitDepth: 8, colourType: 2, rows: [[7, 8, 9]],
            chunksBeforeData: [("tEXt", comment)])
        // The last byte of tEXt's CRC: after the signature, IHDR, and tEXt's 12 bytes of framing and its data.
        text[8 + 25 + 12 + comment.count - 1] ^= 0x01
        #expect(try ImageCodec.decode(text).pixels == [7, 8, 9], "decode passes over a damaged comment")
        #expect(throws: ImageError.self, "verification does not") { try ImageCodec.verify(text) }
    }

    @Test func aJPEGWithCorruptScanDataFailsVerificationThoughDecodePapersOverIt() throws {
        let jpeg = try #require(try wholeFiles().first { $0.0 == "jpeg" }?.1)
        // A marker in the middle of the scan: libjpeg warns "Corrupt JPEG data" and pads with grey.
        var corrupt = jpeg
        corrupt.replaceSubrange(jpeg.count / 2..<jpeg.count / 2 + 2, with: [0xFF, 0xD0])
        #expect(try ImageCodec.decode(corrupt).width == 256, "decode takes it")
        #expect {
            try ImageCodec.verify(corrupt)
        } throws: { error in
            guard case .decodeFailed(let message) = error as? ImageError else { return false }
            return message.contains("Corrupt JPEG data")
        }
        // Random bytes in place of the whole scan.
        let scan = try #require(jpeg.indices.last { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }) + 14
        var random = SeededGenerator(seed: 0x5CA9)
        let garbage = Array(jpeg[..<scan]) + random.bytes(jpeg.count - scan - 2) + [0xFF, 0xD9]
        #expect(throws: ImageError.self) { try ImageCodec.verify(garbage) }
    }

    @Test func verificationChecksTheLimitsBeforeReading() {
        let bomb = ImageTestSupport.forgedPNG(width: 60_000, height: 60_000, size: 4096)
        #expect(throws: ImageError.dimensionsTooLarge(width: 60_000, height: 60_000, limit: .standard)) {
            try ImageCodec.verify(bomb)
        }
        let small = ImageLimits(maxWidth: 100, maxHeight: 100, maxPixels: 5_000)
        let wide = ImageTestSupport.forgedJPEG(width: 90, height: 90, size: 2048)
        #expect(throws: ImageError.dimensionsTooLarge(width: 90, height: 90, limit: small)) {
            try ImageCodec.verify(wide, limits: small)
        }
    }

    @Test(arguments: ["png", "jpeg", "progressive"])
    func whateverPassesVerificationDecodes(kind: String) throws {
        let original = try ImageTestSupport.encoded(ImageTestSupport.gradient(width: 24, height: 16), as: kind)
        let limits = ImageLimits(maxWidth: 2048, maxHeight: 2048, maxPixels: 1 << 20)
        for bytes in ImageTestSupport.damagedCopies(of: original, count: 400, seed: 0x7E21F7) {
            if let header = try? ImageCodec.verify(bytes, limits: limits) {
                let decoded = try ImageCodec.decode(bytes, limits: limits)
                #expect(decoded.width == header.width && decoded.height == header.height)
            }
        }
    }

    @Test func randomBytesNeverCrashVerification() {
        for bytes in ImageTestSupport.randomInputs(count: 1500, seed: 0xC0FFEE) {
            _ = try? ImageCodec.verify(bytes)
        }
    }
}
