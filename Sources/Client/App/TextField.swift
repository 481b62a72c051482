import TerminalUI

/// One line of text being typed: characters, paste, Backspace, Delete, ←/→, Home/End,
/// Ctrl-U (clear). Bounded in length, so a paste of a whole file stays a field.
struct TextField: Equatable {
    var label: String
    var text: String = ""
    /// Shown as dots (passwords).
    var secret = false
    var limit = 256
    /// The cursor, in characters from the start.
    private(set) var cursor = 0
    /// The last typing or paste met the limit and lost characters: said where the field is shown.
    private(set) var overflowed = false

    /// Holds as many characters as it takes.
    var isFull: Bool { text.count >= limit }

    init(label: String, text: String = "", secret: Bool = false, limit: Int = 256) {
        self.label = label
        self.text = text
        self.secret = secret
        self.limit = limit
        cursor = text.count
    }

    mutating func set(_ text: String) {
        self.text = String(text.prefix(limit))
        cursor = self.text.count
        overflowed = false
    }

    /// Applies `event`; true when the field used it.
    mutating func handle(_ event: InputEvent) -> Bool {
        overflowed = false
        switch event {
        case .key(.character(let character), let modifiers) where !modifiers.contains(.alt):
            insert(String(character))
        case .paste(let pasted):
            insert(pasted.replacingOccurrences(of: "\n", with: " "))
        case .key(.backspace, _):
            guard cursor > 0 else { return true }
            let index = text.index(text.startIndex, offsetBy: cursor - 1)
            text.remove(at: index)
            cursor -= 1
        case .key(.delete, _):
            guard cursor < text.count else { return true }
            text.remove(at: text.index(text.startIndex, offsetBy: cursor))
        case .key(.left, _): cursor = max(0, cursor - 1)
        case .key(.right, _): cursor = min(text.count, cursor + 1)
        case .key(.home, _), .key(.control("a"), _): cursor = 0
        case .key(.end, _), .key(.control("e"), _): cursor = text.count
        case .key(.control("u"), _): set("")
        default: return false
        }
        return true
    }

    private mutating func insert(_ typed: String) {
        let printable = typed.filter { !$0.unicodeScalars.contains(where: DisplayWidth.isControl) }
        let clean = String(printable.prefix(max(0, limit - text.count)))
        overflowed = clean.count < printable.count
        text.insert(contentsOf: clean, at: text.index(text.startIndex, offsetBy: cursor))
        cursor += clean.count
    }

    /// Draws "label: text" with the cursor shown when `focused`; returns the columns used.
    @discardableResult
    func draw(into grid: inout CellGrid, column: Int, row: Int, labelWidth: Int, width: Int, focused: Bool) -> Int {
        grid.write(label, column: column, row: row, style: Style(bold: focused), width: labelWidth)
        let shown = secret ? String(repeating: "•", count: text.count) : text
        let boxColumn = column + labelWidth
        let boxWidth = max(1, width - labelWidth)
        grid.fill(columns: boxColumn..<boxColumn + boxWidth, rows: row..<row + 1, style: Style(underline: true))
        // Keep the cursor in view: show the end of a long text.
        let characters = Array(shown)
        let start = max(0, cursor - boxWidth + 1)
        let visible = String(characters[min(start, characters.count)...])
        grid.write(visible, column: boxColumn, row: row, style: Style(underline: true), width: boxWidth)
        if focused {
            let at = boxColumn + cursor - start
            let under = cursor < characters.count ? characters[cursor] : " "
            grid.write(String(under), column: at, row: row, style: Style(reverse: true), width: 1)
        }
        return width
    }
}
