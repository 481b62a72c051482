import TerminalUI

/// A box in the middle of the window with a title in its top edge: the `?` help, a text, a
/// dialog. Its lines are wrapped to the window, never cut; its title is shortened at a word to
/// stay inside the corners.
enum DialogBox {
    /// One line of a box.
    enum Line {
        /// Text in a style; wrapped when wider than the box.
        case text(String, Style = .plain)
        /// A field being typed into, with its cursor.
        case field(TextField)
    }

    /// The columns a field is given to type into, when the window has them.
    static let fieldWidth = 50

    /// Draws `lines` under `title` in a box as narrow as they allow, at most the window less
    /// two columns a side.
    static func draw(into grid: inout CellGrid, title: String, lines: [Line]) {
        let widest = grid.columns - 4
        let inner = widest - 4
        var rows: [Line] = []
        for line in lines {
            switch line {
            // A line that fits keeps its spacing (the help's columns); a longer one is wrapped.
            case .text(let text, let style):
                rows += (DisplayWidth.of(text) <= inner ? [text] : TextWrap.lines(text, width: inner)).map { .text($0, style) }
            case .field: rows.append(line)
            }
        }
        let contentWidth =
            rows.map { line in
                switch line {
                case .text(let text, _): DisplayWidth.of(text)
                case .field(let field): min(inner, DisplayWidth.of(field.label) + 2 + fieldWidth)
                }
            }.max() ?? 0
        // The title between "┌─ " and " ─┐": two columns of edge on each side.
        let shownTitle = TextWrap.shortened(title, width: inner - 2)
        let width = min(widest, max(DisplayWidth.of(shownTitle) + 6, contentWidth + 4))
        let height = min(grid.rows - 2, rows.count + 2)
        let left = (grid.columns - width) / 2
        let top = (grid.rows - height) / 2
        grid.fill(columns: left..<left + width, rows: top..<top + height)
        grid.write("┌" + String(repeating: "─", count: width - 2) + "┐", column: left, row: top)
        grid.write(" \(shownTitle) ", column: left + 2, row: top, style: Style(bold: true), width: width - 4)
        for (index, line) in rows.prefix(height - 2).enumerated() {
            let row = top + 1 + index
            grid.write("│", column: left, row: row)
            switch line {
            case .text(let text, let style):
                grid.write(text, column: left + 2, row: row, style: style, width: width - 4)
            case .field(var field):
                field.label += ":"
                field.draw(
                    into: &grid, column: left + 2, row: row, labelWidth: DisplayWidth.of(field.label) + 1, width: width - 4, focused: true)
            }
            grid.write("│", column: left + width - 1, row: row)
        }
        grid.write("└" + String(repeating: "─", count: width - 2) + "┘", column: left, row: top + height - 1)
    }
}
