import Imaging
import Testing

@testable import Imaging

@Suite struct ImageHeaderTests {
    @Test func theSamplePhotosParseAsPNGWithTheirSizes() throws {
        let rocket = try ImageHeader.parse(ImageTestSupport.fixture("04-rocket.png"))
        #expect(rocket == ImageHeader(format: .png, width: 256, height: 171))
        let brick = try ImageHeader.parse(ImageTestSupport.fixture("09-brick.png"))
        #expect(brick == ImageHeader(format: .png, width: 256, height: 256))
    }

    @Test func aBaselineJPEGFromOurEncoderParses() throws {
        let jpeg = try ImageCodec.encodeJPEG(ImageTestSupport.gradient(width: 37, height: 21))
        #expect(try ImageHeader.parse(jpeg) == ImageHeader(format: .jpeg, width: 37, height: 21))
        #expect(containsMarker(jpeg, 0xC0))
    }

    @Test func aProgressiveJPEGParses() throws {
        let jpeg = try ImageCodec.encodeJPEG(ImageTestSupport.gradient(width: 40, height: 33), progressive: true)
        #expect(containsMarker(jpeg, 0xC2))
        #expect(try ImageHeader.parse(jpeg) == ImageHeader(format: .jpeg, width: 40, height: 33))
    }

    @Test func grayAndCMYKJPEGsParse() throws {
        #expect(try ImageHeader.parse(ImageTestSupport.fixture("gray-64-192-16x8.jpg")).width == 16)
        #expect(try ImageHeader.parse(ImageTestSupport.fixture("cmyk-red-blue-16x8.jpg")).height == 8)
    }

    @Test func everyFrameMarkerCountsAndTheLookalikesDoNot() throws {
        for marker: UInt8 in [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF] {
            let bytes = ImageTestSupport.forgedJPEG(width: 300, height: 200, size: 200, frameMarker: marker)
            #expect(try ImageHeader.parse(bytes) == ImageHeader(format: .jpeg, width: 300, height: 200))
        }
        // DHT, JPG and DAC sit in the same range; skipped as segments, they leave SOS with no frame.
        for marker: UInt8 in [0xC4, 0xC8, 0xCC] {
            let bytes = ImageTestSupport.forgedJPEG(width: 300, height: 200, size: 200, frameMarker: marker)
            #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(bytes) }
        }
    }

    @Test func fillBytesBeforeAMarkerAreSkipped() throws {
        var bytes = ImageTestSupport.forgedJPEG(width: 5, height: 7, size: 100)
        bytes.insert(contentsOf: [0xFF, 0xFF, 0xFF], at: 2)
        #expect(try ImageHeader.parse(bytes) == ImageHeader(format: .jpeg, width: 5, height: 7))
    }

    @Test func otherFormatsAndNonsenseAreNotImages() {
        let samples: [[UInt8]] = [
            [],
            Array("GIF89a\u{01}\u{00}\u{01}\u{00}".utf8),
            [0x42, 0x4D, 0x3A, 0, 0, 0, 0, 0, 0, 0, 0x36, 0, 0, 0], // BMP
            Array("<!DOCTYPE html><html><body>hello</body></html>".utf8),
            Array("RIFF\u{00}\u{00}\u{00}\u{00}WEBPVP8 ".utf8),
            [0xFF, 0xD8, 0xFF, 0xD9], // SOI, EOI: no frame
            [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x08, 1, 1, 0, 0, 63, 0], // SOS before any frame
            [0xFF, 0xD8, 0x00, 0x00], // not a marker after SOI
            [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01], // length below 2
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B], // PNG signature, last byte wrong
        ]
        for bytes in samples {
            #expect(throws: ImageError.notAnImage, "\(bytes.prefix(8))") { try ImageHeader.parse(bytes) }
        }
    }

    @Test func malformedPNGHeadersAreRefused() {
        func ihdr(width: UInt32 = 4, height: UInt32 = 4, depth: UInt8 = 8, colour: UInt8 = 2, tail: [UInt8] = [0, 0, 0]) -> [UInt8] {
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                + ImageTestSupport.pngChunk(
                    "IHDR", ImageTestSupport.bigEndian(width) + ImageTestSupport.bigEndian(height) + [depth, colour] + tail)
        }
        #expect(throws: Never.self) { try ImageHeader.parse(ihdr()) }
        #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(ihdr(width: 0)) }
        #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(ihdr(height: 0x8000_0000)) }
        #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(ihdr(depth: 4, colour: 2)) }
        #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(ihdr(depth: 16, colour: 3)) }
        #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(ihdr(colour: 5)) }
        #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(ihdr(tail: [1, 0, 0])) }
        #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(ihdr(tail: [0, 0, 2])) }

        var badCRC = ihdr()
        badCRC[badCRC.count - 1] ^= 0x01
        #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(badCRC) }

        // First chunk not IHDR, or IHDR with the wrong length.
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(throws: ImageError.notAnImage) {
            try ImageHeader.parse(signature + ImageTestSupport.pngChunk("IDAT", [UInt8](repeating: 0, count: 13)))
        }
        #expect(throws: ImageError.notAnImage) {
            try ImageHeader.parse(signature + ImageTestSupport.pngChunk("IHDR", [UInt8](repeating: 1, count: 14)))
        }
    }

    @Test func everyPrefixOfAPNGIsTruncatedUntilTheHeaderIsComplete() throws {
        let png = try ImageCodec.encodePNG(ImageTestSupport.gradient(width: 9, height: 5))
        try expectPrefixes(of: png, headerLength: 33, give: ImageHeader(format: .png, width: 9, height: 5))
    }

    @Test func everyPrefixOfAJPEGIsTruncatedUntilTheFrameHeaderIsComplete() throws {
        for progressive in [false, true] {
            let jpeg = try ImageCodec.encodeJPEG(ImageTestSupport.gradient(width: 9, height: 5), progressive: progressive)
            let frame = try #require(markerOffset(jpeg, progressive ? 0xC2 : 0xC0))
            let length = Int(jpeg[frame + 2]) << 8 | Int(jpeg[frame + 3])
            try expectPrefixes(of: jpeg, headerLength: frame + 2 + length, give: ImageHeader(format: .jpeg, width: 9, height: 5))
        }
    }

    @Test func randomBytesNeverCrashTheParser() {
        var random = SeededGenerator(seed: 0x5EED_0001)
        var parsed = 0
        for round in 0..<3000 {
            var bytes = random.bytes(Int.random(in: 0...300, using: &random))
            // A third start like PNG, a third like JPEG, so the parsers get past the first byte.
            switch round % 3 {
            case 0: bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes
            case 1: bytes = [0xFF, 0xD8] + bytes
            default: break
            }
            do {
                let header = try ImageHeader.parse(bytes)
                #expect(header.width > 0 && header.height > 0)
                parsed += 1
            } catch {
                #expect(error == .notAnImage || error == .truncated)
            }
        }
        // A random walk through JPEG segments occasionally meets a plausible SOF; that is fine.
        #expect(parsed < 300)
    }

    @Test func theParserWorksOnSlicesAndOtherCollections() throws {
        let png = try ImageTestSupport.fixture("04-rocket.png")
        let slice = ([0, 0, 0] + png)[3...]
        #expect(try ImageHeader.parse(slice).height == 171)
        #expect(try ImageHeader.parse(AnyCollection(png.prefix(40))).width == 256)
    }

    // MARK: Helpers

    private func expectPrefixes(of bytes: [UInt8], headerLength: Int, give expected: ImageHeader) throws {
        for length in 0...bytes.count {
            let prefix = bytes[..<length]
            if length == 0 {
                #expect(throws: ImageError.notAnImage) { try ImageHeader.parse(prefix) }
            } else if length < headerLength {
                #expect(throws: ImageError.truncated, "prefix \(length)") { try ImageHeader.parse(prefix) }
            } else {
                #expect(try ImageHeader.parse(prefix) == expected, "prefix \(length)")
            }
        }
    }

    private func markerOffset(_ bytes: [UInt8], _ marker: UInt8) -> Int? {
        // Our encoder writes headers before any entropy-coded data, so the first hit is the marker.
        bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == marker }
    }

    private func containsMarker(_ bytes: [UInt8], _ marker: UInt8) -> Bool {
        markerOffset(bytes, marker) != nil
    }
}
