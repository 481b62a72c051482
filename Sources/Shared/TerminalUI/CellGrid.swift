/// A colour as a screen asks for it; `ScreenWriter` brings it down to what the terminal shows.
public enum Color: Sendable, Hashable {
    /// The terminal's own foreground or background.
    case standard
    /// An entry of the 256-colour palette.
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)
}

/// How a cell is drawn.
public struct Style: Sendable, Hashable {
    public var foreground: Color
    public var background: Color
    public var bold: Bool
    public var underline: Bool
    /// Foreground and background swapped (a selection, a cursor).
    public var reverse: Bool

    public init(
        foreground: Color = .standard, background: Color = .standard,
        bold: Bool = false, underline: Bool = false, reverse: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
    }

    public static let plain = Style()
}

/// One cell of the screen: a character one column wide, the left half of a wide one, or the
/// right half (`isContinuation`), which the left half draws.
public struct Cell: Sendable, Equatable {
    public var character: Character
    public var style: Style
    public var isContinuation: Bool

    public init(_ character: Character = " ", style: Style = .plain, isContinuation: Bool = false) {
        self.character = character
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell()
}

/// What a screen should show, cell by cell; a view draws into one and `ScreenWriter` puts it on
/// the terminal. Writing never reaches past the grid: text is clipped, a wide character that
/// does not fit becomes a space, and covering half of a wide character blanks the other half.
public struct CellGrid: Sendable, Equatable {
    public let columns: Int
    public let rows: Int
    private var cells: [Cell]

    public init(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        cells = Array(repeating: .blank, count: self.columns * self.rows)
    }

    public subscript(column: Int, row: Int) -> Cell {
        cells[row * columns + column]
    }

    /// The characters of `row` as text (continuations left out), for tests and captures.
    public func text(ofRow row: Int) -> String {
        String((0..<columns).compactMap { self[$0, row].isContinuation ? nil : self[$0, row].character })
    }

    /// Writes `text` from `column` on `row` in `style`, at most `width` columns (to the end of
    /// the row by default); returns the columns used. Control characters show as `?`.
    @discardableResult
    public mutating func write(_ text: String, column: Int, row: Int, style: Style = .plain, width: Int? = nil) -> Int {
        guard (0..<rows).contains(row), column < columns else { return 0 }
        let limit = min(columns, column + (width ?? columns))
        var at = column
        for character in text {
            let shown = character.unicodeScalars.contains(where: DisplayWidth.isControl) ? "?" : character
            let wide = DisplayWidth.of(shown) == 2
            guard at + (wide ? 2 : 1) <= limit else {
                if wide && at < limit {
                    put(Cell(" ", style: style), at: at, row: row)
                    at += 1
                }
                break
            }
            if at >= 0 {
                put(Cell(shown, style: style), at: at, row: row)
                if wide { put(Cell(" ", style: style, isContinuation: true), at: at + 1, row: row) }
            }
            at += wide ? 2 : 1
        }
        return max(0, at - column)
    }

    /// Puts one single-width cell at `column`, `row` (ignored outside the grid).
    public mutating func set(_ cell: Cell, column: Int, row: Int) {
        guard (0..<columns).contains(column), (0..<rows).contains(row), DisplayWidth.of(cell.character) == 1 else { return }
        put(cell, at: column, row: row)
    }

    /// Paints blanks in `style` over a rectangle (clipped to the grid).
    public mutating func fill(columns range: Range<Int>, rows rowRange: Range<Int>, style: Style = .plain) {
        let columnRange = range.clamped(to: 0..<columns)
        for row in rowRange.clamped(to: 0..<rows) {
            for column in columnRange { put(Cell(" ", style: style), at: column, row: row) }
        }
    }

    /// Stores one cell, blanking the other half of any wide character it covers half of.
    private mutating func put(_ cell: Cell, at column: Int, row: Int) {
        let index = row * columns + column
        let old = cells[index]
        if old.isContinuation && !cell.isContinuation && column > 0 {
            cells[index - 1] = Cell(" ", style: cells[index - 1].style)
        }
        if !old.isContinuation && DisplayWidth.of(old.character) == 2 && column + 1 < columns && !cell.isContinuation {
            cells[index + 1] = Cell(" ", style: cells[index + 1].style)
        }
        cells[index] = cell
    }
}
