import Testing

@testable import Imaging

@Suite("Colour quantizer")
struct ColorQuantizerTests {
    private static let red = RGBImage.Color(red: 230, green: 20, blue: 40)
    private static let teal = RGBImage.Color(red: 0, green: 128, blue: 128)
    private static let cream = RGBImage.Color(red: 250, green: 240, blue: 200)

    /// A 9x7 picture of red, teal and cream stripes and a few stray pixels.
    private static var threeColours: RGBImage {
        var image = RGBImage(width: 9, height: 7, color: red)
        for y in 0..<7 { for x in 0..<9 where (x + y) % 3 == 1 { image[x, y] = teal } }
        image[4, 4] = cream
        image[8, 0] = cream
        return image
    }

    /// The mean, over every 4x4 block and channel, of how far the block's average is from the
    /// original's: what an eye sees from a distance, where dithering should win.
    private static func localError(_ image: RGBImage, _ quantized: IndexedImage) -> Double {
        let shown = quantized.rgb
        var total = 0.0
        var blocks = 0
        for top in stride(from: 0, to: image.height - 3, by: 4) {
            for left in stride(from: 0, to: image.width - 3, by: 4) {
                for channel in 0..<3 {
                    var original = 0
                    var approximation = 0
                    for y in top..<(top + 4) {
                        for x in left..<(left + 4) {
                            original += Int(image.pixels[(y * image.width + x) * 3 + channel])
                            approximation += Int(shown.pixels[(y * image.width + x) * 3 + channel])
                        }
                    }
                    total += Double(abs(original - approximation)) / 16
                    blocks += 1
                }
            }
        }
        return total / Double(blocks)
    }

    @Test("a picture of three colours gets exactly those three, undithered")
    func fewColoursAreExact() {
        let image = Self.threeColours
        for dither in [true, false] {
            let quantized = image.quantized(colors: 16, dither: dither)
            #expect(quantized.palette.count == 3)
            #expect(Set(quantized.palette) == [Self.red, Self.teal, Self.cream])
            #expect(quantized.rgb == image)
        }
    }

    @Test("a picture with exactly as many colours as allowed keeps them all; one more and it does not")
    func exactAtTheLimit() {
        // A column of each colour, 17 columns, each far from the others.
        func columns(_ count: Int) -> RGBImage {
            var image = RGBImage(width: count, height: 3, color: .black)
            for x in 0..<count { for y in 0..<3 { image[x, y] = RGBImage.Color(red: UInt8(x * 15), green: 90, blue: UInt8(255 - x * 15)) } }
            return image
        }
        let sixteen = columns(16).quantized(colors: 16)
        #expect(sixteen.palette.count == 16 && sixteen.rgb == columns(16))
        let seventeen = columns(17).quantized(colors: 16)
        #expect(seventeen.palette.count == 16 && seventeen.rgb != columns(17))
    }

    @Test(
        "the palette never has more than the colours asked for (clamped to 2...256), no two alike, every index inside it",
        arguments: [0, 1, 2, 5, 16, 64, 255, 256, 1_000])
    func paletteSizeIsBounded(colors: Int) {
        let image = RGBImage.noise(side: 48, seed: 23)
        for dither in [true, false] {
            let quantized = image.quantized(colors: colors, dither: dither)
            #expect(quantized.palette.count == min(max(colors, 2), 256), "noise has colours to fill any palette")
            #expect(Set(quantized.palette).count == quantized.palette.count)
            #expect(quantized.indices.count == 48 * 48)
            #expect(quantized.indices.allSatisfy { Int($0) < quantized.palette.count })
        }
    }

    @Test("a smooth gradient in 16 colours is closer to the original over 4x4 blocks with dithering than without")
    func ditheringLowersTheLocalError() {
        let gradient = ImageTestSupport.gradient(width: 256, height: 64)
        let dithered = gradient.quantized(colors: 16, dither: true)
        let banded = gradient.quantized(colors: 16, dither: false)
        #expect(dithered.palette == banded.palette, "dithering changes the mapping, not the palette")
        let withDither = Self.localError(gradient, dithered)
        let without = Self.localError(gradient, banded)
        #expect(withDither < without * 0.6, "dithered \(withDither), banded \(without)")
    }

    @Test("a photo in 256 colours, dithered, stays within a few levels of the original over 4x4 blocks")
    func aPhotoIn256Colours() throws {
        let photo = try ImageCodec.decode(ImageTestSupport.fixture("04-rocket.png"))
        let quantized = photo.quantized(colors: 256)
        #expect(quantized.palette.count == 256)
        #expect(Self.localError(photo, quantized) < 1.5, "\(Self.localError(photo, quantized))")
        #expect(Self.localError(photo, photo.quantized(colors: 16)) < 4)
    }

    @Test("the same picture always gives the same palette and indices")
    func deterministic() throws {
        let photo = try ImageCodec.decode(ImageTestSupport.fixture("04-rocket.png"))
        #expect(photo.quantized(colors: 64) == photo.quantized(colors: 64))
        let noise = RGBImage.noise(side: 40, seed: 7)
        #expect(noise.quantized(colors: 256, dither: false) == noise.quantized(colors: 256, dither: false))
    }

    @Test("an empty picture gives an empty palette")
    func emptyPicture() {
        let quantized = RGBImage(width: 0, height: 5, pixels: []).quantized(colors: 16)
        #expect(quantized.palette.isEmpty && quantized.indices.isEmpty && quantized.height == 5)
    }
}
