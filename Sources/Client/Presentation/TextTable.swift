/// A plain-text table: a header row and rows of cells, columns padded to the widest cell.
///
/// Widths are terminal columns: East Asian wide and fullwidth characters and emoji count as
/// two, combining marks ride on their base character. Control characters in cells (which
/// could move the cursor or inject escape sequences from server-supplied names) print as `?`.
/// Lines carry no trailing spaces, and the text ends without a newline.
public struct TextTable: Sendable {
    /// Which side of its column a cell hugs; numbers read best on the right.
    public enum Alignment: Sendable {
        case left
        case right
    }

    /// A column's title and alignment.
    public struct Column: Sendable {
        public var title: String
        public var alignment: Alignment

        public init(_ title: String, alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    public var columns: [Column]
    public var rows: [[String]] = []
    /// Whether the first line is the column titles.
    public var showsHeader = true
    /// Spaces between columns.
    public var gap = 2

    /// An empty table with these columns.
    public init(columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are empty and extra cells are dropped.
    public mutating func append(_ cells: [String]) {
        rows.append(cells)
    }

    /// The table as lines joined by newlines, with no trailing newline.
    public func render() -> String {
        let header = columns.map { PrintableText.clean($0.title) }
        let body = rows.map { row in columns.indices.map { $0 < row.count ? PrintableText.clean(row[$0]) : "" } }
        let lines = showsHeader ? [header] + body : body
        let widths = columns.indices.map { column in lines.map { Self.displayWidth(of: $0[column]) }.max() ?? 0 }
        return lines.map { cells in
            var line = ""
            for (column, cell) in cells.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - Self.displayWidth(of: cell))
                if column > 0 { line += String(repeating: " ", count: gap) }
                line += columns[column].alignment == .right ? padding + cell : cell + padding
            }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Terminal columns `text` takes: 2 for wide characters, 1 for the rest.
    public static func displayWidth(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    private static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // A variation selector 16 asks for emoji presentation, which terminals draw two wide.
        if scalars.contains("\u{FE0F}") { return 2 }
        return isWide(first.value) ? 2 : 1
    }

    /// East Asian Wide/Fullwidth blocks and the emoji blocks; a coarse but dependency-free
    /// approximation of Unicode's East Asian Width property (UAX #11).
    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
             0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18CFF, 0x1B000...0x1B2FF, 0x1F004, 0x1F0CF,
             0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F320, 0x1F32D...0x1F335,
             0x1F337...0x1F37C, 0x1F37E...0x1F393, 0x1F3A0...0x1F3CA, 0x1F3CF...0x1F3D3,
             0x1F3E0...0x1F3F0, 0x1F3F4, 0x1F3F8...0x1F43E, 0x1F440, 0x1F442...0x1F4FC,
             0x1F4FF...0x1F53D, 0x1F54B...0x1F54E, 0x1F550...0x1F567, 0x1F57A, 0x1F595...0x1F596,
             0x1F5A4, 0x1F5FB...0x1F64F, 0x1F680...0x1F6C5, 0x1F6CC, 0x1F6D0...0x1F6D2,
             0x1F6D5...0x1F6D7, 0x1F6DC...0x1F6DF, 0x1F6EB...0x1F6EC, 0x1F6F4...0x1F6FC,
             0x1F7E0...0x1F7EB, 0x1F7F0, 0x1F90C...0x1F93A, 0x1F93C...0x1F945, 0x1F947...0x1F9FF,
             0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
