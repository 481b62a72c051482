import Foundation

/// iTerm2's inline images (WezTerm shows them too).
extension PictureEscapes {
    /// iTerm2 inline image: the file (PNG or JPEG) as it is, in base64.
    public static func iterm(file: [UInt8], column: Int, row: Int, columns: Int, rows: Int) -> [UInt8] {
        Array(
            (cursor(column: column, row: row)
                + "\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=1:"
                + Data(file).base64EncodedString() + "\u{07}").utf8)
    }
}
