import TerminalUI

/// What a terminal shows after the bytes a program wrote: a grid of cells, each a character and
/// the style in effect when it was written. Knows what the client writes: cursor moves (CUP),
/// SGR (reset, bold, underline, reverse, 24-bit, 256 and default colours), clearing the screen
/// or a row, newlines (as carriage return and line feed); other sequences (private modes,
/// synchronized output, pictures' DCS, APC and OSC strings) leave the cells alone. Lets tests
/// compare what different paths put on the screen, not how their bytes are spelled.
struct TerminalScreenModel {
    let columns: Int, rows: Int
    private(set) var cells: [[Cell]]
    private var row = 0, column = 0
    private var style = Style.plain

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
    }

    /// The screen after `bytes`, on a screen of `columns` x `rows` cells.
    static func after(_ bytes: [UInt8], columns: Int, rows: Int) -> TerminalScreenModel {
        var screen = TerminalScreenModel(columns: columns, rows: rows)
        screen.apply(bytes)
        return screen
    }

    mutating func apply(_ bytes: [UInt8]) {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var at = 0
        while at < scalars.count {
            let scalar = scalars[at]
            at += 1
            switch scalar {
            case "\u{1B}" where at < scalars.count && scalars[at] == "[":
                at += 1
                var parameters = ""
                while at < scalars.count, !(0x40...0x7E).contains(scalars[at].value) {
                    parameters.unicodeScalars.append(scalars[at])
                    at += 1
                }
                guard at < scalars.count else { return }
                control(parameters, final: scalars[at])
                at += 1
            case "\u{1B}" where at < scalars.count && ["P", "_", "]"].contains(scalars[at]):
                // A string (sixel, kitty, OSC): up to ST or BEL.
                while at < scalars.count, scalars[at] != "\u{07}", !(scalars[at] == "\\" && scalars[at - 1] == "\u{1B}") { at += 1 }
                at += 1
            case "\n":
                row += 1
                column = 0
            case "\r":
                column = 0
            default:
                if row < rows, column < columns { cells[row][column] = Cell(Character(scalar), style: style) }
                column += 1
            }
        }
    }

    private mutating func control(_ parameters: String, final: Unicode.Scalar) {
        guard !parameters.hasPrefix("?") else { return }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        switch final {
        case "H":
            row = max(1, numbers.first ?? 1) - 1
            column = max(1, numbers.count > 1 ? numbers[1] : 1) - 1
        case "J" where numbers.first == 2:
            cells = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
        case "K" where numbers.first == 2:
            if row < rows { cells[row] = Array(repeating: .blank, count: columns) }
        case "m":
            var index = 0
            while index < numbers.count {
                let number = numbers[index]
                switch number {
                case 0: style = .plain
                case 1: style.bold = true
                case 4: style.underline = true
                case 7: style.reverse = true
                case 38, 48:
                    var colour = Color.standard
                    if index + 4 < numbers.count, numbers[index + 1] == 2 {
                        colour = .rgb(UInt8(numbers[index + 2]), UInt8(numbers[index + 3]), UInt8(numbers[index + 4]))
                        index += 4
                    } else if index + 2 < numbers.count, numbers[index + 1] == 5 {
                        colour = .indexed(UInt8(numbers[index + 2]))
                        index += 2
                    }
                    if number == 38 { style.foreground = colour } else { style.background = colour }
                case 39: style.foreground = .standard
                case 49: style.background = .standard
                default: break
                }
                index += 1
            }
        default:
            break
        }
    }

    /// `grid` as a terminal of `depth` colours shows it: the colours `ScreenWriter` sends for each.
    static func shown(_ grid: CellGrid, depth: ColorDepth) -> [[Cell]] {
        func colour(_ colour: Color) -> Color {
            switch (colour, depth) {
            case (_, .plain): .standard
            case (.rgb(let r, let g, let b), .palette256): .indexed(UInt8(ColorDepth.paletteIndex(red: r, green: g, blue: b)))
            default: colour
            }
        }
        return (0..<grid.rows).map { row in
            (0..<grid.columns).map { column in
                var cell = grid[column, row]
                cell.style.foreground = colour(cell.style.foreground)
                cell.style.background = colour(cell.style.background)
                return cell
            }
        }
    }
}
