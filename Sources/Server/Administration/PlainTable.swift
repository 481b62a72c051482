/// The offline commands' tables (`admin audit`, `admin roster`): a header and rows, each column
/// padded to its widest cell, two spaces apart, no trailing spaces. Cells are the commands' own
/// text or names that the rules for names already keep printable.
enum PlainTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let lines = [header] + rows
        let widths = header.indices.map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }
            .joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
