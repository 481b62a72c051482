import TerminalUI
import Testing
@testable import Client
@testable import Imaging

@Suite struct HalfBlockRendererTests {
    private let renderer = HalfBlockRenderer()
    private let red = RGBImage.Color(red: 255, green: 0, blue: 0)
    private let blue = RGBImage.Color(red: 0, green: 0, blue: 255)
    private let reset = "\u{1B}[0m"

    /// 4x4: the top two rows red, the bottom two blue.
    private var redOverBlue: RGBImage {
        var image = RGBImage(width: 4, height: 4, color: blue)
        for y in 0..<2 { for x in 0..<4 { image[x, y] = red } }
        return image
    }

    @Test func aTwoColourImageInTwoColumnsAndOneRowIsTwoHalfBlocks() {
        let lines = renderer.render(redOverBlue, columns: 2, rows: 1)
        #expect(lines == ["\u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀▀\u{1B}[0m"])
    }

    @Test func marginsArePlainSpacesOnTheDefaultBackground() {
        // 4x4 into 6x1 cells (6x2 pixels) is 2x2 pixels, centred: two columns of margin each side.
        let lines = renderer.render(redOverBlue, columns: 6, rows: 1)
        #expect(lines == ["  \u{1B}[38;2;255;0;0m\u{1B}[48;2;0;0;255m▀▀\u{1B}[49m  \u{1B}[0m"])
    }

    @Test func aWideImageLeavesBlankRowsAndAHalfCellAtTheBottom() {
        // 4x1 into 4x2 cells (4x4 pixels) stays 4x1: one pixel row, at the top of the first cell row
        // (rounded to an even pixel row), its lower half on the default background.
        let image = RGBImage(width: 4, height: 1, color: red)
        let lines = renderer.render(image, columns: 4, rows: 2)
        #expect(lines == ["\u{1B}[38;2;255;0;0m▀▀▀▀\(reset)", "    \(reset)"])
    }

    @Test func aTallImageIsCentredHorizontally() {
        let image = RGBImage(width: 1, height: 4, color: blue)
        let lines = renderer.render(image, columns: 5, rows: 2)
        let cell = "\u{1B}[38;2;0;0;255m\u{1B}[48;2;0;0;255m▀"
        #expect(lines == ["  \(cell)\u{1B}[49m  \(reset)", "  \(cell)\u{1B}[49m  \(reset)"])
    }

    @Test(arguments: [(1, 1), (2, 1), (80, 24), (7, 13), (200, 3), (3, 200)])
    func thereIsOneLinePerRowAndEachIsExactlyTheWidth(columns: Int, rows: Int) {
        var image = RGBImage(width: 17, height: 9, color: red)
        image[3, 3] = blue
        let lines = renderer.render(image, columns: columns, rows: rows)
        #expect(lines.count == rows)
        for line in lines {
            #expect(visibleCharacters(line) == columns)
            #expect(line.hasSuffix(reset))
        }
    }

    @Test func aColourIsNotSentAgainWhileItRepeats() {
        let image = RGBImage(width: 30, height: 20, color: red)
        let lines = renderer.render(image, columns: 30, rows: 10)
        for line in lines {
            #expect(line == "\u{1B}[38;2;255;0;0m\u{1B}[48;2;255;0;0m" + String(repeating: "▀", count: 30) + reset)
        }
    }

    @Test func aRealPhotoRendersToTheRequestedSize() {
        var image = RGBImage(width: 256, height: 171, color: .black)
        for y in 0..<171 { for x in 0..<256 { image[x, y] = RGBImage.Color(red: UInt8(x), green: UInt8(y), blue: 99) } }
        let lines = renderer.render(image, columns: 80, rows: 24)
        #expect(lines.count == 24)
        // 256x171 into 80x48 pixels is 72x48: four margin columns either side, no blank rows.
        for line in lines {
            #expect(line.hasPrefix("    \u{1B}[38;2;"))
            #expect(visibleCharacters(line) == 80)
        }
    }

    @Test func nothingToDrawGivesBlankLines() {
        #expect(renderer.render(redOverBlue, columns: 0, rows: 2) == ["", ""])
        #expect(renderer.render(redOverBlue, columns: 3, rows: 0) == [])
        let empty = RGBImage(width: 0, height: 0, pixels: [])
        #expect(renderer.render(empty, columns: 3, rows: 1) == ["   \(reset)"])
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

@Suite struct ColorDepthTests {
    @Test func theTerminalSaysHowManyColoursItHas() {
        #expect(ColorDepth.detect(["COLORTERM": "truecolor", "TERM": "xterm"]) == .trueColor)
        #expect(ColorDepth.detect(["COLORTERM": "24bit"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm-direct"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "screen-256color"]) == .palette256)
        #expect(ColorDepth.detect(["TERM": "xterm"]) == .palette256, "Debian's xterm says only TERM=xterm")
        #expect(ColorDepth.detect(["TERM": "dumb"]) == .plain)
        #expect(ColorDepth.detect(["TERM": "linux"]) == .plain)
        #expect(ColorDepth.detect([:]) == .plain)
    }

    @Test func theTerminalsOwnAnswerRaisesTheDepth() {
        #expect(ColorDepth.detect(["TERM": "xterm"], version: "XTerm(379)") == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm"], version: "XTerm(322)") == .palette256, "direct colour came in patch 331")
        #expect(ColorDepth.detect(["TERM": "xterm-256color"], version: "kitty(0.26.5)") == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm-kitty"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"]) == .trueColor)
        #expect(ColorDepth.detect(["TERM": "xterm"], version: "SomethingElse 1.0") == .palette256)
        #expect(ColorDepth.detect(["TERM": "xterm", "XTERM_VERSION": "XTerm(379)"]) == .trueColor, "xterm's own variable, unasked")
        #expect(ColorDepth.detect(["TERM": "dumb"], version: "XTerm(379)") == .plain, "dumb stays plain whatever answers")
    }

    @Test func noColorTurnsOffDecorationsOnly() {
        #expect(ColorDepth.decorationsColored(["TERM": "xterm-256color"], onTerminal: true))
        #expect(!ColorDepth.decorationsColored(["TERM": "xterm-256color", "NO_COLOR": "1"], onTerminal: true))
        #expect(!ColorDepth.decorationsColored(["TERM": "xterm-256color"], onTerminal: false))
        #expect(ColorDepth.detect(["COLORTERM": "truecolor", "NO_COLOR": "1"]) == .plain, "NO_COLOR: shaded characters, no colour")
    }

    @Test func paletteColoursAreTheNearestCubeOrGrey() {
        #expect(ColorDepth.paletteIndex(red: 255, green: 0, blue: 0) == 196)
        #expect(ColorDepth.paletteIndex(red: 0, green: 0, blue: 0) == 16)
        #expect(ColorDepth.paletteIndex(red: 255, green: 255, blue: 255) == 231)
        #expect(ColorDepth.paletteIndex(red: 128, green: 128, blue: 128) == 244)
    }

    @Test func aPictureIn256ColoursUsesThePalette() {
        let red = RGBImage(width: 2, height: 2, color: RGBImage.Color(red: 255, green: 0, blue: 0))
        #expect(HalfBlockRenderer(depth: .palette256).render(red, columns: 2, rows: 1)
                == ["\u{1B}[38;5;196m\u{1B}[48;5;196m▀▀\u{1B}[0m"])
    }

    @Test func aPictureWithoutColourIsShadedCharacters() {
        var image = RGBImage(width: 2, height: 2, color: RGBImage.Color(red: 255, green: 255, blue: 255))
        image[0, 0] = RGBImage.Color(red: 0, green: 0, blue: 0)
        image[0, 1] = RGBImage.Color(red: 0, green: 0, blue: 0)
        let lines = HalfBlockRenderer(depth: .plain).render(image, columns: 2, rows: 1)
        #expect(lines == ["@ "], "black is the heaviest ink, white none, and no escape is sent")
    }
}
