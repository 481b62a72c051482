import TerminalUI
import Testing

@Suite("Cell grid and screen writer")
struct ScreenTests {
    @Test("text is clipped to its width and the grid; control characters show as ?")
    func writing() {
        var grid = CellGrid(columns: 8, rows: 2)
        #expect(grid.write("hello world", column: 2, row: 0) == 6)
        #expect(grid.text(ofRow: 0) == "  hello ")
        #expect(grid.write("abcdef", column: 0, row: 1, width: 3) == 3)
        #expect(grid.write("x\u{1B}[2J", column: 4, row: 1) == 4)
        #expect(grid.text(ofRow: 1) == "abc x?[2")
        #expect(grid.write("off", column: 0, row: 5) == 0)
        #expect(grid.write("off", column: 9, row: 0) == 0)
    }

    @Test("a wide character takes two cells; one that does not fit becomes a space; covering half blanks the other")
    func wideCharacters() {
        var grid = CellGrid(columns: 5, rows: 1)
        #expect(grid.write("日本x", column: 0, row: 0) == 5)
        #expect(grid[1, 0].isContinuation && !grid[0, 0].isContinuation)
        #expect(grid.text(ofRow: 0) == "日本x")
        grid.write("a", column: 1, row: 0)
        #expect(grid.text(ofRow: 0) == " a本x")
        grid.write("b", column: 2, row: 0)
        #expect(grid.text(ofRow: 0) == " ab x")
        var narrow = CellGrid(columns: 3, rows: 1)
        #expect(narrow.write("a日本", column: 0, row: 0) == 3)
        #expect(narrow.text(ofRow: 0) == "a日")
        narrow.write("ab日", column: 0, row: 0)
        #expect(narrow.text(ofRow: 0) == "ab ")
    }

    @Test("the first frame draws everything; an unchanged frame writes nothing; a change writes only itself")
    func diffing() {
        var writer = ScreenWriter(depth: .trueColor)
        var grid = CellGrid(columns: 10, rows: 3)
        grid.write("Feeds", column: 0, row: 0)
        let first = String(decoding: writer.frame(grid), as: UTF8.self)
        #expect(first.hasPrefix("\u{1B}[0m\u{1B}[2J"))
        #expect(first.contains("Feeds"))
        #expect(writer.frame(grid).isEmpty)

        grid.write("X", column: 4, row: 2)
        #expect(String(decoding: writer.frame(grid), as: UTF8.self) == "\u{1B}[3;5HX")

        grid.write("ab", column: 7, row: 1, style: Style(foreground: .rgb(255, 0, 0), bold: true))
        #expect(String(decoding: writer.frame(grid), as: UTF8.self) == "\u{1B}[2;8H\u{1B}[0;1;38;2;255;0;0mab\u{1B}[0m")

        writer.invalidate()
        #expect(String(decoding: writer.frame(grid), as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[2J"))
        #expect(
            String(decoding: writer.frame(CellGrid(columns: 12, rows: 3)), as: UTF8.self).hasPrefix("\u{1B}[0m\u{1B}[2J"),
            "a new size is drawn whole")
    }

    @Test("a frame is sent as one synchronized update; no change sends nothing")
    func synchronizedFrames() {
        var writer = ScreenWriter(depth: .trueColor)
        var grid = CellGrid(columns: 4, rows: 1)
        grid.write("ab", column: 0, row: 0)
        let first = String(decoding: ScreenWriter.synchronized(writer.frame(grid)), as: UTF8.self)
        #expect(first.hasPrefix("\u{1B}[?2026h\u{1B}[0m\u{1B}[2J") && first.hasSuffix("\u{1B}[?2026l"), "\(first.debugDescription)")
        #expect(ScreenWriter.synchronized(writer.frame(grid)).isEmpty)
    }

    @Test("colours come down to the terminal's depth; plain keeps bold, underline and reverse only")
    func depths() {
        var grid = CellGrid(columns: 2, rows: 1)
        grid.write(
            "a", column: 0, row: 0, style: Style(foreground: .rgb(255, 0, 0), background: .indexed(17), underline: true, reverse: true))
        var palette = ScreenWriter(depth: .palette256)
        #expect(String(decoding: palette.frame(grid), as: UTF8.self).contains("\u{1B}[0;4;7;38;5;196;48;5;17ma"))
        var plain = ScreenWriter(depth: .plain)
        let text = String(decoding: plain.frame(grid), as: UTF8.self)
        #expect(text.contains("\u{1B}[0;4;7ma"))
        #expect(!text.contains("38;") && !text.contains("48;"))
    }

    @Test("changing the right half of a wide character redraws the character from its left half")
    func wideRedraw() {
        var writer = ScreenWriter(depth: .trueColor)
        var grid = CellGrid(columns: 4, rows: 1)
        grid.write("日", column: 0, row: 0)
        _ = writer.frame(grid)
        grid.write("本", column: 0, row: 0)
        #expect(String(decoding: writer.frame(grid), as: UTF8.self) == "\u{1B}[1;1H本")
        grid.write("x", column: 1, row: 0)
        #expect(String(decoding: writer.frame(grid), as: UTF8.self) == "\u{1B}[1;1H x")
    }
}
