import TerminalUI

/// A plain-text table: a header row and rows of cells, columns padded to the widest cell.
///
/// Widths are terminal columns: East Asian wide and fullwidth characters and emoji count as
/// two, combining marks ride on their base character. Control characters in cells (which
/// could move the cursor or inject escape sequences from server-supplied names) print as `?`.
/// Lines carry no trailing spaces, and the text ends without a newline.
struct TextTable: Sendable {
    /// Which side of its column a cell hugs; numbers read best on the right.
    enum Alignment: Sendable {
        case left
        case right
    }

    /// A column's title and alignment.
    struct Column: Sendable {
        var title: String
        var alignment: Alignment

        init(_ title: String, alignment: Alignment = .left) {
            self.title = title
            self.alignment = alignment
        }
    }

    var columns: [Column]
    var rows: [[String]] = []
    /// Whether the first line is the column titles.
    var showsHeader = true
    /// Spaces between columns.
    var gap = 2

    /// An empty table with these columns.
    init(columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; missing cells are empty and extra cells are dropped.
    mutating func append(_ cells: [String]) {
        rows.append(cells)
    }

    /// The table as lines joined by newlines, with no trailing newline.
    func render() -> String {
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

    /// Terminal columns `text` takes (see `DisplayWidth`).
    static func displayWidth(of text: String) -> Int { DisplayWidth.of(text) }
}
