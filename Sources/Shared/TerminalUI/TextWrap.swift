/// Word wrapping for terminal columns.
public enum TextWrap {
    /// `text` broken at spaces into lines of at most `width` columns; a word wider than a line
    /// is cut into pieces. The leading spaces of an indented text stay on its first line. An
    /// empty text is one empty line.
    public static func lines(_ text: String, width: Int) -> [String] {
        let width = max(2, width)
        var indent = String(text.prefix(while: { $0 == " " }))
        if indent.count >= width / 2 { indent = "" }
        var lines: [String] = []
        var line = indent
        var lineWidth = indent.count
        var hasWord = false
        for word in text.split(separator: " ") {
            var rest = Substring(word)
            if hasWord && lineWidth + 1 + DisplayWidth.of(String(rest)) > width {
                lines.append(line)
                (line, lineWidth, hasWord) = ("", 0, false)
            }
            if hasWord {
                line += " "
                lineWidth += 1
            }
            // On a line of its own and still too wide: as much as fits, then the rest below.
            while lineWidth + DisplayWidth.of(String(rest)) > width {
                var taken = 0
                for character in rest {
                    let columns = DisplayWidth.of(character)
                    if lineWidth + columns > width && taken > 0 { break }
                    line.append(character)
                    lineWidth += columns
                    taken += 1
                }
                rest = rest.dropFirst(taken)
                lines.append(line)
                (line, lineWidth) = ("", 0)
            }
            line += rest
            lineWidth += DisplayWidth.of(String(rest))
            hasWord = true
        }
        lines.append(line)
        return lines
    }
}
