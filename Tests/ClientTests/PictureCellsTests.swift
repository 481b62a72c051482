import TerminalUI
import Testing

@testable import Client
@testable import Imaging

/// The one half-block renderer: a picture fitted into a box of cells, two pixels a cell, the
/// upper one the ink of "▀" and the lower one its paper.
@Suite struct PictureCellsTests {
    private let red = RGBImage.Color(red: 255, green: 0, blue: 0)
    private let blue = RGBImage.Color(red: 0, green: 0, blue: 255)
    private let reset = "\u{1B}[0m"

    /// 4x4: the top two rows red, the bottom two blue.
    private var redOverBlue: RGBImage {
        var image = RGBImage(width: 4, height: 4, color: blue)
        for y in 0..<2 { for x in 0..<4 { image[x, y] = red } }
        return image
    }

    private func cells(_ image: RGBImage, columns: Int, rows: Int, depth: ColorDepth = .trueColor) -> CellGrid {
        var grid = CellGrid(columns: columns, rows: rows)
        PictureCells(image).draw(into: &grid, area: Rect(x: 0, y: 0, width: columns, height: rows), depth: depth)
        return grid
    }

    private func block(_ upper: RGBImage.Color, _ lower: RGBImage.Color?) -> Cell {
        Cell(
            "▀",
            style: Style(
                foreground: .rgb(upper.red, upper.green, upper.blue),
                background: lower.map { .rgb($0.red, $0.green, $0.blue) } ?? .standard))
    }

    @Test("a two-colour picture in two columns and one row is two half blocks: the upper pixel the ink, the lower the paper")
    func twoColours() {
        let grid = cells(redOverBlue, columns: 2, rows: 1)
        #expect(grid[0, 0] == block(red, blue) && grid[1, 0] == block(red, blue))
        #expect(
            ImageDisplay.lines(redOverBlue, columns: 2, rows: 1, depth: .trueColor)
                == ["\u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀▀\(reset)"])
    }

    @Test("the margins around a fitted picture are blank cells on the terminal's background")
    func margins() {
        // 4x4 into 6x1 cells (6x2 pixels) is 2x2 pixels, centred: two columns of margin each side.
        let grid = cells(redOverBlue, columns: 6, rows: 1)
        #expect((0..<6).map { grid[$0, 0] } == [.blank, .blank, block(red, blue), block(red, blue), .blank, .blank])
        #expect(
            ImageDisplay.lines(redOverBlue, columns: 6, rows: 1, depth: .trueColor)
                == ["  \u{1B}[0;38;2;255;0;0;48;2;0;0;255m▀▀\u{1B}[0m  "])
    }

    @Test(
        "an odd number of pixel rows ends in a cell whose lower half is the terminal's background",
        arguments: [(4, 1, 4, 2), (2, 3, 2, 2), (6, 5, 6, 4), (8, 6, 4, 2)])
    func oddLastRow(width: Int, height: Int, columns: Int, rows: Int) {
        let image = RGBImage(width: width, height: height, color: red)
        let grid = cells(image, columns: columns, rows: rows)
        let drawn = (0..<rows).filter { row in (0..<columns).contains { grid[$0, row] != .blank } }
        let last = drawn.last ?? -1
        // The fitted picture keeps an odd height: its last cell row is half picture, half background.
        #expect((0..<columns).contains { grid[$0, last] == block(red, nil) }, "rows \(drawn)")
        let whole = drawn.dropLast().allSatisfy { row in
            (0..<columns).allSatisfy { grid[$0, row] == .blank || grid[$0, row] == block(red, red) }
        }
        #expect(whole, "every row above it is whole picture cells")
    }

    @Test("a wide picture is centred on whole cells from the top of its box, a tall one across")
    func centring() {
        // 8x2 into 4x4 cells (4x8 pixels) is 4x1: one pixel row, in the middle cell row (1 of 0...3).
        let wide = cells(RGBImage(width: 8, height: 2, color: red), columns: 4, rows: 4)
        #expect((0..<4).map { row in wide[0, row] } == [.blank, block(red, nil), .blank, .blank])
        // 1x4 into 5x2 cells is 1x4: the middle column.
        let tall = cells(RGBImage(width: 1, height: 4, color: blue), columns: 5, rows: 2)
        #expect((0..<5).map { tall[$0, 0] } == [.blank, .blank, block(blue, blue), .blank, .blank])
    }

    @Test(
        "any box gives exactly its rows as lines, each exactly its width",
        arguments: [(1, 1), (2, 1), (80, 24), (7, 13), (200, 3), (3, 200)])
    func linesFillTheBox(columns: Int, rows: Int) {
        var image = RGBImage(width: 17, height: 9, color: red)
        image[3, 3] = blue
        let lines = ImageDisplay.lines(image, columns: columns, rows: rows, depth: .trueColor)
        #expect(lines.count == rows)
        for line in lines { #expect(visibleCharacters(line) == columns) }
    }

    @Test("a colour repeated along a row is sent once")
    func coloursAreNotRepeated() {
        let lines = ImageDisplay.lines(RGBImage(width: 30, height: 20, color: red), columns: 30, rows: 10, depth: .trueColor)
        for line in lines {
            #expect(line == "\u{1B}[0;38;2;255;0;0;48;2;255;0;0m" + String(repeating: "▀", count: 30) + reset)
        }
    }

    @Test("a photo fills an 80x24 box with its aspect ratio kept")
    func photo() {
        var image = RGBImage(width: 256, height: 171, color: .black)
        for y in 0..<171 { for x in 0..<256 { image[x, y] = RGBImage.Color(red: UInt8(x), green: UInt8(y), blue: 99) } }
        // 256x171 into 80x48 pixels is 72x48: four margin columns either side, no blank rows.
        let grid = cells(image, columns: 80, rows: 24)
        for row in 0..<24 {
            #expect((0..<4).allSatisfy { grid[$0, row] == .blank } && (76..<80).allSatisfy { grid[$0, row] == .blank })
            #expect((4..<76).allSatisfy { grid[$0, row].character == "▀" })
        }
    }

    @Test("nothing to draw leaves the box blank")
    func nothing() {
        #expect(ImageDisplay.lines(redOverBlue, columns: 0, rows: 2, depth: .trueColor) == ["", ""])
        #expect(ImageDisplay.lines(redOverBlue, columns: 3, rows: 0, depth: .trueColor) == [])
        #expect(ImageDisplay.lines(RGBImage(width: 0, height: 0, pixels: []), columns: 3, rows: 1, depth: .trueColor) == ["   "])
    }

    @Test("in 256 colours a pixel is the palette's nearest entry")
    func palette() {
        let red = RGBImage(width: 2, height: 2, color: red)
        #expect(ImageDisplay.lines(red, columns: 2, rows: 1, depth: .palette256) == ["\u{1B}[0;38;5;196;48;5;196m▀▀\(reset)"])
    }

    @Test("without colour each cell is a shade whose ink follows its two pixels' brightness, and no escape is sent")
    func shades() {
        var image = RGBImage(width: 2, height: 2, color: RGBImage.Color(red: 255, green: 255, blue: 255))
        image[0, 0] = RGBImage.Color(red: 0, green: 0, blue: 0)
        image[0, 1] = RGBImage.Color(red: 0, green: 0, blue: 0)
        #expect(ImageDisplay.lines(image, columns: 2, rows: 1, depth: .plain) == ["@ "], "black is the heaviest ink, white none")
    }

    @Test("a picture scaled ahead for its box (the camera's frame on the local worker) draws the cells it draws scaled on the spot")
    func preparedAhead() {
        var image = RGBImage(width: 64, height: 47, color: red)
        for y in 0..<47 { for x in 0..<64 where (x + y) % 5 == 0 { image[x, y] = blue } }
        let prepared = PictureCells(image)
        prepared.prepare(columns: 30, rows: 9)
        var grid = CellGrid(columns: 30, rows: 9)
        prepared.draw(into: &grid, area: Rect(x: 0, y: 0, width: 30, height: 9), depth: .trueColor)
        #expect(grid == cells(image, columns: 30, rows: 9))
    }

    /// Characters left once the SGR sequences are removed.
    private func visibleCharacters(_ line: String) -> Int {
        var count = 0
        var inEscape = false
        for character in line.unicodeScalars {
            if inEscape {
                if character == "m" { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }
}
