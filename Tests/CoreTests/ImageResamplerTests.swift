import Testing

@testable import Imaging

@Suite struct ImageResamplerTests {
    private let orange = RGBImage.Color(red: 250, green: 128, blue: 7)

    @Test(arguments: [(7, 5), (3, 2), (1, 1), (20, 9), (5, 11), (14, 1)])
    func aSolidColourStaysExactlyThatColour(width: Int, height: Int) {
        let image = RGBImage(width: 7, height: 5, color: orange)
        let resized = ImageResampler.resize(image, width: width, height: height)
        #expect(resized == RGBImage(width: width, height: height, color: orange))
    }

    @Test func halvingA4x2CheckerboardGivesTheMeanOfEachBlock() {
        var board = RGBImage(width: 4, height: 2, color: .black)
        for y in 0..<2 {
            for x in 0..<4 where (x + y) % 2 == 0 { board[x, y] = .white }
        }
        let half = ImageResampler.resize(board, width: 2, height: 1)
        // Each 2x2 block holds two white and two black pixels: 127.5, rounded half up.
        #expect(half.pixels == [UInt8](repeating: 128, count: 6))
    }

    @Test func downscalingAveragesWholeBlocks() {
        var image = RGBImage(width: 4, height: 2, color: .black)
        for y in 0..<2 {
            image[0, y] = RGBImage.Color(red: 100, green: 0, blue: 0)
            image[1, y] = RGBImage.Color(red: 200, green: 0, blue: 0)
            image[2, y] = RGBImage.Color(red: 0, green: 40, blue: 0)
            image[3, y] = RGBImage.Color(red: 0, green: 80, blue: 0)
        }
        let resized = ImageResampler.resize(image, width: 2, height: 1)
        #expect(resized.pixels == [150, 0, 0, 0, 60, 0])
    }

    @Test func downscalingByANonIntegerFactorWeighsPartialPixels() {
        // Three pixels into two: the middle one is split half and half.
        var image = RGBImage(width: 3, height: 1, color: .black)
        image[0, 0] = RGBImage.Color(red: 0, green: 0, blue: 0)
        image[1, 0] = RGBImage.Color(red: 90, green: 0, blue: 0)
        image[2, 0] = RGBImage.Color(red: 180, green: 0, blue: 0)
        let resized = ImageResampler.resize(image, width: 2, height: 1)
        #expect(resized[0, 0].red == 30 && resized[1, 0].red == 150) // (0*2+90)/3, (90+180*2)/3
    }

    @Test func upscalingInterpolatesBetweenPixelCentres() {
        var image = RGBImage(width: 2, height: 1, color: .black)
        image[1, 0] = RGBImage.Color(red: 200, green: 100, blue: 40)
        let resized = ImageResampler.resize(image, width: 4, height: 1)
        // Centres at -0.25 (clamped), 0.25, 0.75, 1.25 (clamped) in source pixels.
        #expect(resized.pixels.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) == [0, 50, 150, 200])
    }

    @Test func sameSizeIsUnchanged() throws {
        let photo = try ImageCodec.decode(ImageTestSupport.fixture("04-rocket.png"))
        #expect(ImageResampler.resize(photo, width: 256, height: 171) == photo)
        let small = ImageResampler.resize(photo, width: 64, height: 43)
        #expect(small.width == 64 && small.height == 43)
    }

    @Test(arguments: [
        // source, box, expected
        ((256, 171), (80, 48), (72, 48)),
        ((256, 171), (80, 100), (80, 53)),
        ((256, 256), (80, 48), (48, 48)),
        ((4, 4), (2, 2), (2, 2)),
        ((10, 5), (100, 100), (100, 50)), // scales up
        ((1000, 1), (50, 50), (50, 1)), // never below one pixel
        ((1, 1000), (50, 50), (1, 50)),
        ((3, 2), (0, 10), (0, 0)),
        ((0, 2), (10, 10), (0, 0)),
    ])
    func fittingKeepsTheAspectRatioInsideTheBox(source: (Int, Int), box: (Int, Int), expected: (Int, Int)) {
        let fitted = ImageResampler.fit(width: source.0, height: source.1, intoWidth: box.0, height: box.1)
        #expect(fitted.width == expected.0 && fitted.height == expected.1)
    }
}
