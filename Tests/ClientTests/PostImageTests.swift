import Imaging
import Testing

@testable import Client
@testable import Imaging

@Suite struct PostImageTests {
    static func noise(width: Int, height: Int) -> RGBImage {
        var generator = SeededGenerator(seed: 7)
        return RGBImage(
            width: width, height: height, pixels: (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    let limits = ImageLimits(maxBytes: 150_000, maxWidth: 400, maxHeight: 400, maxPixels: 120_000)

    @Test func aPictureThatFitsGoesByteForByte() throws {
        let png = try ImageCodec.encodePNG(Self.noise(width: 60, height: 40))
        let prepared = try PostImage.prepare(png, limits: limits)
        #expect(prepared.bytes == png)
        #expect(prepared.shrunk == nil)
    }

    @Test func aLargePhotoIsShrunkToFitKeepingItsAspectRatio() throws {
        let png = try ImageCodec.encodePNG(Self.noise(width: 900, height: 600))
        #expect(png.count > limits.maxBytes)
        let prepared = try PostImage.prepare(png, limits: limits)
        let header = try ImageHeader.parse(prepared.bytes)
        #expect(header.format == .jpeg)
        #expect(prepared.bytes.count <= limits.maxBytes)
        #expect(header.width <= 400 && header.height <= 400 && header.width * header.height <= 120_000)
        let ratio = Double(header.width) / Double(header.height)
        #expect(abs(ratio - 1.5) < 0.02, "aspect ratio kept: \(header.width)x\(header.height)")
        #expect(prepared.shrunk?.from.width == 900)
    }

    @Test func onlyWhatCannotBeReadIsRefused() {
        #expect(throws: ClientError.self) { try PostImage.prepare(Array("GIF89a, not ours".utf8), limits: limits) }
        var damaged = (try? ImageCodec.encodePNG(Self.noise(width: 900, height: 600))) ?? []
        damaged.removeLast(damaged.count / 2)
        let error = #expect(throws: ClientError.self) { try PostImage.prepare(damaged, limits: limits) }
        #expect(error?.message.contains("cannot be read") == true, "\(error?.message ?? "")")
    }
}
