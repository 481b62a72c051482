import Testing

@testable import Client

@Suite struct BrailleCanvasTests {
    @Test func eachDotOfACellHasItsBrailleBit() {
        // Unicode braille: dots 1-3 down the left column, 4-6 down the right, 7 and 8 at the bottom.
        let expected: [(x: Int, y: Int, scalar: UInt32)] = [
            (0, 0, 0x2801), (0, 1, 0x2802), (0, 2, 0x2804), (1, 0, 0x2808),
            (1, 1, 0x2810), (1, 2, 0x2820), (0, 3, 0x2840), (1, 3, 0x2880),
        ]
        for dot in expected {
            var canvas = BrailleCanvas(columns: 1, rows: 1)
            canvas.set(x: dot.x, y: dot.y)
            #expect(canvas.render() == [String(Unicode.Scalar(dot.scalar)!)], "dot (\(dot.x), \(dot.y))")
        }
    }

    @Test func aFullCellIsTheEightDotCharacterAndAnEmptyOneIsASpace() {
        var canvas = BrailleCanvas(columns: 2, rows: 1)
        for y in 0..<4 { for x in 0..<2 { canvas.set(x: x, y: y) } }
        #expect(canvas.render() == ["⣿ "])
    }

    @Test func aKnownDotLandsInTheExpectedCell() {
        var canvas = BrailleCanvas(columns: 10, rows: 5)
        canvas.set(x: 7, y: 15) // cell (3, 3), right column, fourth row: dot 8
        let lines = canvas.render()
        #expect(lines[3] == "   ⢀      ")
        #expect(canvas.isSet(x: 7, y: 15))
        #expect(!canvas.isSet(x: 6, y: 15))
    }

    @Test func dotsOutsideTheCanvasAreIgnored() {
        var canvas = BrailleCanvas(columns: 2, rows: 2)
        for (x, y) in [(-1, 0), (0, -1), (4, 0), (0, 8), (Int.max, Int.min)] { canvas.set(x: x, y: y) }
        #expect(canvas.render() == ["  ", "  "])
    }

    @Test func aHorizontalLineAcrossTheMapSetsEveryDotOfItsRow() {
        var canvas = BrailleCanvas(columns: 6, rows: 2)
        canvas.line(from: (0, 5.5), to: (11.9, 5.5))
        // Row 5 is the second dot row of the second cell row: dots 2 and 5 in every cell.
        #expect(canvas.render() == ["      ", "⠒⠒⠒⠒⠒⠒"])
        #expect((0..<12).allSatisfy { canvas.isSet(x: $0, y: 5) })
    }

    @Test func aDiagonalSetsOneDotPerStepAndIsClippedToTheCanvas() {
        var canvas = BrailleCanvas(columns: 4, rows: 2)
        canvas.line(from: (-1000, -1000), to: (1000, 1000))
        for x in 0..<8 {
            for y in 0..<8 { #expect(canvas.isSet(x: x, y: y) == (x == y), "(\(x), \(y))") }
        }
    }

    @Test func aLineEntirelyOffTheCanvasDrawsNothingAndAHugeOneIsCheap() {
        var canvas = BrailleCanvas(columns: 4, rows: 2)
        canvas.line(from: (-50, -5), to: (-1, 100))
        canvas.line(from: (0, 9), to: (7, 20))
        #expect(canvas.render() == ["    ", "    "])
        // Ten trillion dots long, but only the part inside is walked.
        canvas.line(from: (-1e13, 2), to: (1e13, 2))
        #expect((0..<8).allSatisfy { canvas.isSet(x: $0, y: 2) })
        canvas.line(from: (.nan, 0), to: (3, 3))
        canvas.line(from: (.infinity, 0), to: (3, 3))
    }

    @Test func aLabelReplacesItsCellAndIsHighlightedOnlyWhenAsked() {
        var canvas = BrailleCanvas(columns: 3, rows: 1)
        canvas.line(from: (0, 0), to: (5.9, 0))
        let placed = canvas.label(.init("1"), atDotX: 3, y: 2)
        let offCanvas = canvas.label(.init("2"), atDotX: 6, y: 0)
        #expect(placed && !offCanvas)
        #expect(canvas.render() == ["⠉1⠉"])
        #expect(canvas.render(highlight: ("<", ">")) == ["⠉<1>⠉"])
        #expect(canvas.label(column: 1, row: 0)?.character == "1")
    }

    @Test func sizesBelowOneCellBecomeOne() {
        let canvas = BrailleCanvas(columns: 0, rows: -3)
        #expect(canvas.columns == 1 && canvas.rows == 1)
        #expect(canvas.dotWidth == 2 && canvas.dotHeight == 4)
    }
}
