import Imaging
import TerminalUI
import Testing

@Suite("Sixel encoding")
struct SixelEncodingTests {
    /// A sixel picture read back: the registers it defined (in percent) and, per pixel, the
    /// register that painted it (-1 for none).
    struct Decoded {
        var width = 0, height = 0
        var registers: [Int: [Int]] = [:]
        var pixels: [Int] = []
        /// Problems met: a pixel painted twice, outside the raster, an unknown byte.
        var problems: [String] = []
    }

    /// Parses what `PictureEscapes.sixel` writes: the cursor move, `ESC P … q`, the raster
    /// attributes, then `#n;2;r;g;b`, `#n`, `!n`, `$`, `-` and sixel characters up to `ESC \`.
    static func decode(_ bytes: [UInt8]) -> Decoded {
        var picture = Decoded()
        var at = 0
        func number() -> Int {
            var value = 0
            while at < bytes.count, (0x30...0x39).contains(bytes[at]) {
                value = value * 10 + Int(bytes[at] - 0x30)
                at += 1
            }
            return value
        }
        func numbers() -> [Int] {
            var values = [number()]
            while at < bytes.count, bytes[at] == UInt8(ascii: ";") {
                at += 1
                values.append(number())
            }
            return values
        }
        guard let start = bytes.firstIndex(of: UInt8(ascii: "q")), bytes[..<start].starts(with: [0x1B, UInt8(ascii: "[")]),
            bytes[..<start].contains(0x1B)
        else {
            picture.problems.append("no sixel introducer")
            return picture
        }
        at = start + 1
        var register = 0
        var x = 0
        var band = 0
        func paint(_ character: UInt8, times: Int) {
            let bits = Int(character) - 63
            for _ in 0..<times {
                for bit in 0..<6 where bits & (1 << bit) != 0 {
                    let y = band * 6 + bit
                    guard x < picture.width, y < picture.height else {
                        picture.problems.append("pixel (\(x), \(y)) outside the raster")
                        continue
                    }
                    if picture.pixels[y * picture.width + x] >= 0 { picture.problems.append("pixel (\(x), \(y)) painted twice") }
                    picture.pixels[y * picture.width + x] = register
                }
                x += 1
            }
        }
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                let attributes = numbers()
                guard attributes.count == 4 else {
                    picture.problems.append("raster attributes \(attributes)")
                    return picture
                }
                (picture.width, picture.height) = (attributes[2], attributes[3])
                picture.pixels = [Int](repeating: -1, count: picture.width * picture.height)
            case UInt8(ascii: "#"):
                let values = numbers()
                register = values[0]
                if values.count == 5, values[1] == 2 { picture.registers[register] = Array(values[2...]) }
            case UInt8(ascii: "!"):
                let count = number()
                guard at < bytes.count, (63...126).contains(bytes[at]) else {
                    picture.problems.append("a run of nothing")
                    return picture
                }
                at += 1
                paint(bytes[at - 1], times: count)
            case UInt8(ascii: "$"):
                x = 0
            case UInt8(ascii: "-"):
                x = 0
                band += 1
            case 63...126:
                paint(byte, times: 1)
            case 0x1B where at < bytes.count && bytes[at] == UInt8(ascii: "\\"):
                if at + 1 != bytes.count { picture.problems.append("bytes after the end") }
                return picture
            default:
                picture.problems.append("unexpected byte \(byte)")
            }
        }
        picture.problems.append("no string terminator")
        return picture
    }

    private static func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }

    private static func encode(_ image: IndexedImage, column: Int = 0, row: Int = 0) -> [UInt8] {
        PictureEscapes.sixel(
            width: image.width, height: image.height, palette: image.palette.map { ($0.red, $0.green, $0.blue) },
            indices: image.indices, column: column, row: row)
    }

    @Test(
        "an indexed picture decodes back to its palette colour at every pixel, whatever its size",
        arguments: [(1, 1), (5, 6), (7, 5), (13, 13), (40, 12), (3, 17), (64, 25)], [1, 2, 16, 256])
    func roundTrip(size: (Int, Int), colors: Int) {
        let (width, height) = size
        var random = SeededGenerator(seed: UInt64(width * 1_000 + height * 10 + colors))
        let palette = (0..<colors).map { _ in
            RGBImage.Color(
                red: .random(in: 0...255, using: &random), green: .random(in: 0...255, using: &random),
                blue: .random(in: 0...255, using: &random))
        }
        // Runs of one colour among random pixels, so both `!n` and single sixels occur.
        var indices: [UInt8] = []
        while indices.count < width * height {
            let index = UInt8.random(in: 0...UInt8(colors - 1), using: &random)
            indices += [UInt8](repeating: index, count: min(width * height - indices.count, Int.random(in: 1...9, using: &random)))
        }
        let image = IndexedImage(width: width, height: height, palette: palette, indices: indices)
        let decoded = Self.decode(Self.encode(image, column: 4, row: 2))
        #expect(decoded.problems.isEmpty, "\(decoded.problems.prefix(5))")
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.pixels == indices.map(Int.init), "every pixel painted once, by its own register")
        for (pixel, register) in decoded.pixels.enumerated() where register >= 0 {
            let color = palette[Int(indices[pixel])]
            #expect(decoded.registers[register] == [Self.percent(color.red), Self.percent(color.green), Self.percent(color.blue)])
        }
        #expect(Set(decoded.registers.keys) == Set(indices.map(Int.init)), "only the registers used are defined")
    }

    @Test("a quantized picture's colours come back exactly when the palette is in whole percents")
    func quantizedRoundTrip() {
        // Levels that survive 8-bit -> percent -> 8-bit: 0, 51, 102, 153, 204, 255 are 0-100 in fives of 20.
        var image = RGBImage(width: 23, height: 11, color: .black)
        for y in 0..<11 { for x in 0..<23 { image[x, y] = RGBImage.Color(red: UInt8(x % 6 * 51), green: UInt8(y % 3 * 102), blue: 204) } }
        let quantized = image.quantized(colors: 256)
        let decoded = Self.decode(Self.encode(quantized))
        #expect(decoded.problems.isEmpty)
        let colors = decoded.pixels.map { register in
            decoded.registers[register].map {
                RGBImage.Color(red: UInt8($0[0] * 255 / 100), green: UInt8($0[1] * 255 / 100), blue: UInt8($0[2] * 255 / 100))
            }
        }
        #expect(colors == (0..<(23 * 11)).map { Optional(image[$0 % 23, $0 / 23]) })
    }

    @Test("the framing: cursor, introducer, raster attributes, registers, then each colour over the band up to its last sixel")
    func framing() {
        // 5 pixels wide, 6 high: the top three rows red (register 0), the bottom three blue (1);
        // red sets bits 0-2 ("?" + 7 = "F"), blue bits 3-5 ("?" + 56 = "w").
        var indices: [UInt8] = []
        for y in 0..<6 { indices += [UInt8](repeating: y < 3 ? 0 : 1, count: 5) }
        let bytes = PictureEscapes.sixel(
            width: 5, height: 6, palette: [(255, 0, 0), (0, 0, 255), (9, 9, 9)], indices: indices,
            column: 2, row: 0)
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}[1;3H\u{1B}P0;1;0q\"1;1;5;6#0;2;100;0;0#1;2;0;0;100#0!5F$#1!5w\u{1B}\\")
    }

    @Test("a band names only the colours it holds, runs of three stay as they are, a colour's row ends at its last sixel")
    func bandsHoldOnlyTheirColours() {
        // 8 x 7: the first band green with one white pixel at (1, 0); the second band (one row) black.
        var indices = [UInt8](repeating: 1, count: 8 * 6) + [UInt8](repeating: 0, count: 8)
        indices[1] = 2
        let bytes = PictureEscapes.sixel(
            width: 8, height: 7, palette: [(0, 0, 0), (0, 255, 0), (255, 255, 255)], indices: indices,
            column: 0, row: 0)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("#2;2;100;100;100#1~}!6~$#2?@-#0!8@\u{1B}\\"), "\(text)")
        let short = PictureEscapes.sixel(width: 3, height: 1, palette: [(0, 0, 0)], indices: [0, 0, 0], column: 0, row: 0)
        #expect(String(decoding: short, as: UTF8.self).hasSuffix("#0@@@\u{1B}\\"))
    }
}
