/// Draws `CellGrid`s on a terminal, writing only the cells that changed since the last frame.
///
/// The first frame, a frame of another size and the one after `invalidate()` clear the screen and
/// draw every cell. After that a frame costs a cursor move per run of changed cells, a style
/// change where the style differs, and the changed characters. Colours come down to the
/// terminal's depth: 24-bit, the nearest 256-palette entry, or none at all (bold, underline and
/// reverse remain).
public struct ScreenWriter: Sendable {
    public var depth: ColorDepth
    private var shown: CellGrid?

    public init(depth: ColorDepth) {
        self.depth = depth
    }

    /// Forgets what is on the screen (after a resize, a suspend, anything else writing to it):
    /// the next frame is drawn whole.
    public mutating func invalidate() {
        shown = nil
    }

    /// Whether the next frame of `grid` clears the screen and draws every cell (which, in kitty,
    /// also takes every picture away).
    public func repaintsAll(_ grid: CellGrid) -> Bool {
        shown.map { $0.columns != grid.columns || $0.rows != grid.rows } ?? true
    }

    /// The bytes that turn the screen from the last frame into `grid`; empty when nothing changed.
    public mutating func frame(_ grid: CellGrid) -> [UInt8] {
        var output = Output(depth: depth)
        let previous = shown.flatMap { $0.columns == grid.columns && $0.rows == grid.rows ? $0 : nil }
        if previous == nil { output.append("\u{1B}[0m\u{1B}[2J") }
        for row in 0..<grid.rows {
            var column = 0
            while column < grid.columns {
                let cell = grid[column, row]
                if let previous, !Self.changed(previous, grid, column, row) {
                    column += 1
                    continue
                }
                if cell.isContinuation {
                    // Drawn with its left half; a changed right half means the left half changed too.
                    column += 1
                    continue
                }
                output.draw(cell, column: column, row: row)
                column += DisplayWidth.of(cell.character) == 2 ? 2 : 1
            }
        }
        shown = grid
        return output.finish()
    }

    /// `grid` as lines of text, one a row without newlines, for output that is not a screen (a
    /// pipe, a file, a terminal's scrollback): the same styles as `frame` at this depth, sent
    /// where they change along a row, and every row that set one ends with a reset.
    public func lines(_ grid: CellGrid) -> [String] {
        (0..<grid.rows).map { row in
            var output = Output(depth: depth)
            for column in 0..<grid.columns where !grid[column, row].isContinuation { output.append(grid[column, row]) }
            return String(decoding: output.finish(), as: UTF8.self)
        }
    }

    /// `frame` (cells, and any picture escapes with them) between the begin and end of
    /// synchronized output (DEC mode 2026): a terminal that knows the mode shows the frame whole
    /// or not at all, never half drawn; one that does not ignores it. The mode is set, never
    /// queried (some terminals print the query's reply).
    public static func synchronized(_ frame: [UInt8]) -> [UInt8] {
        frame.isEmpty ? [] : Array("\u{1B}[?2026h".utf8) + frame + Array("\u{1B}[?2026l".utf8)
    }

    /// Whether a cell must be drawn again: it differs, or it is the left half of a wide
    /// character whose right half differs.
    private static func changed(_ old: CellGrid, _ new: CellGrid, _ column: Int, _ row: Int) -> Bool {
        if old[column, row] != new[column, row] { return true }
        return column + 1 < new.columns && new[column + 1, row].isContinuation && old[column + 1, row] != new[column + 1, row]
    }

    /// Escape sequences and text on their way out, with the cursor and the style they leave.
    private struct Output {
        let depth: ColorDepth
        var bytes: [UInt8] = []
        var cursor: (column: Int, row: Int)?
        /// Every frame ends with the style reset, and a whole redraw starts with one.
        var style = Style.plain

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        mutating func draw(_ cell: Cell, column: Int, row: Int) {
            if cursor == nil || cursor! != (column, row) {
                append("\u{1B}[\(row + 1);\(column + 1)H")
            }
            append(cell)
            cursor = (column + (DisplayWidth.of(cell.character) == 2 ? 2 : 1), row)
        }

        /// The cell where the cursor is: its style where it changes, then its character.
        mutating func append(_ cell: Cell) {
            if style != cell.style {
                append(sgr(cell.style))
                style = cell.style
            }
            append(String(cell.character))
        }

        mutating func finish() -> [UInt8] {
            if style != .plain { append("\u{1B}[0m") }
            return bytes
        }

        /// The whole style from a reset, so no attribute of the cell before leaks into this one.
        func sgr(_ style: Style) -> String {
            var codes = ["0"]
            if style.bold { codes.append("1") }
            if style.underline { codes.append("4") }
            if style.reverse { codes.append("7") }
            if let foreground = colour(style.foreground, base: 38) { codes.append(foreground) }
            if let background = colour(style.background, base: 48) { codes.append(background) }
            return "\u{1B}[" + codes.joined(separator: ";") + "m"
        }

        func colour(_ colour: Color, base: Int) -> String? {
            switch (colour, depth) {
            case (.standard, _), (_, .plain): nil
            case (.indexed(let index), _): "\(base);5;\(index)"
            case (.rgb(let r, let g, let b), .trueColor): "\(base);2;\(r);\(g);\(b)"
            case (.rgb(let r, let g, let b), .palette256): "\(base);5;\(ColorDepth.paletteIndex(red: r, green: g, blue: b))"
            }
        }
    }
}
