import Foundation
import Imaging
import Testing

@testable import Imaging

/// Image bytes and pixels the imaging tests build on: fixtures, hand-made PNGs, random bytes.
enum ImageTestSupport {
    /// A file from Tests/CoreTests/Fixtures.
    static func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return [UInt8](try Data(contentsOf: url))
    }

    /// A smooth colour gradient, friendly to JPEG.
    static func gradient(width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height, color: .black)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGBImage.Color(
                    red: UInt8(x * 255 / max(width - 1, 1)),
                    green: UInt8(y * 255 / max(height - 1, 1)),
                    blue: UInt8((x + y) * 127 / max(width + height - 2, 1))
                )
            }
        }
        return image
    }

    /// `image` as a "png", a baseline "jpeg" or a "progressive" JPEG.
    static func encoded(_ image: RGBImage, as kind: String) throws -> [UInt8] {
        switch kind {
        case "png": try ImageCodec.encodePNG(image)
        case "jpeg": try ImageCodec.encodeJPEG(image)
        default: try ImageCodec.encodeJPEG(image, progressive: true)
        }
    }

    /// `count` copies of `original`, each with 1 to 6 bytes set to random values.
    static func damagedCopies(of original: [UInt8], count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            var bytes = original
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            return bytes
        }
    }

    /// `count` runs of up to 400 random bytes: a third after a PNG signature, a third after a
    /// JPEG start of image, a third as they come.
    static func randomInputs(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { round in
            let bytes = random.bytes(Int.random(in: 0...400, using: &random))
            switch round % 3 {
            case 0: return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes
            case 1: return [0xFF, 0xD8, 0xFF] + bytes
            default: return bytes
            }
        }
    }

    /// A PNG chunk: length, type, data, CRC.
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data
            + bigEndian(PNGChunkCRC.checksum(typeBytes + data))
    }

    /// A PNG written by hand, so tests can make colour types our encoder never writes.
    /// `rows` are the packed scanlines without filter bytes; the IDAT is stored, not deflated.
    static func png(
        width: Int, height: Int, bitDepth: UInt8, colourType: UInt8, interlace: UInt8 = 0,
        rows: [[UInt8]], chunksBeforeData: [(String, [UInt8])] = []
    ) -> [UInt8] {
        let header =
            bigEndian(UInt32(width)) + bigEndian(UInt32(height))
            + [bitDepth, colourType, 0, 0, interlace]
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += pngChunk("IHDR", header)
        for (type, data) in chunksBeforeData { bytes += pngChunk(type, data) }
        bytes += pngChunk("IDAT", storedZlib(rows.flatMap { [0] + $0 }))
        bytes += pngChunk("IEND", [])
        return bytes
    }

    /// The scanlines of an Adam7-interlaced RGB8 PNG of `image`, pass by pass, for `png(interlace: 1)`.
    static func adam7Rows(_ image: RGBImage) -> [[UInt8]] {
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.flatMap { x0, y0, dx, dy in
            // A pass with no columns has no scanlines (and no filter bytes) at all.
            guard x0 < image.width else { return [[UInt8]]() }
            return stride(from: y0, to: image.height, by: dy).map { y in
                stride(from: x0, to: image.width, by: dx).flatMap { x in
                    let pixel = image[x, y]
                    return [pixel.red, pixel.green, pixel.blue]
                }
            }
        }
    }

    /// A zlib stream of uncompressed (stored) deflate blocks.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            let length = UInt16(count)
            stream += [final, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            stream += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return stream + bigEndian(b << 16 | a)
    }

    /// A PNG whose IHDR (with a correct CRC) claims `width` x `height`, padded to `size` bytes.
    static func forgedPNG(width: UInt32, height: UInt32, size: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += pngChunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0])
        // Overhead: IDAT and IEND framing (24), zlib header and Adler-32 (6), 5 per stored block.
        let data = max(0, size - bytes.count - 24 - 6 - 5 * ((size + 65_534) / 65_535))
        bytes += pngChunk("IDAT", storedZlib([UInt8](repeating: 0, count: data)))
        bytes += pngChunk("IEND", [])
        return bytes
    }

    /// A JPEG whose baseline SOF claims `width` x `height`, padded to `size` bytes.
    static func forgedJPEG(width: UInt16, height: UInt16, size: Int, frameMarker: UInt8 = 0xC0) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes +=
            [0xFF, frameMarker, 0x00, 17, 8] + bigEndian16(height) + bigEndian16(width)
            + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        bytes += [0xFF, 0xDA, 0x00, 12, 3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]
        bytes += [UInt8](repeating: 0x55, count: max(0, size - bytes.count - 2))
        bytes += [0xFF, 0xD9]
        return bytes
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func bigEndian16(_ value: UInt16) -> [UInt8] {
        [UInt8(value >> 8), UInt8(value & 0xFF)]
    }
}
