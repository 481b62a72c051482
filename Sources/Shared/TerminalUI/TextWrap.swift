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

extension TextWrap {
    /// `text` as it is when it fits `width` columns; else shortened at the end of a word with an
    /// ellipsis, never in the middle of one (the separators left before the cut, such as " ·",
    /// "," or "(", go too). Only a first word wider than the line is cut inside: nothing else
    /// could show.
    public static func shortened(_ text: String, width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 1 else { return width == 1 ? "…" : "" }
        // The longest start that leaves a column for the ellipsis.
        var end = text.startIndex
        var used = 0
        while end < text.endIndex, used + DisplayWidth.of(text[end]) <= width - 1 {
            used += DisplayWidth.of(text[end])
            end = text.index(after: end)
        }
        var kept = text[..<end]
        // It ends inside a word: back to where that word starts, unless it is the first.
        if end < text.endIndex, text[end] != " ", let space = kept.lastIndex(of: " ") { kept = text[..<space] }
        let trimmed = String(kept.reversed().drop { " ·,;:-–—(/|".contains($0) }.reversed())
        return (trimmed.isEmpty ? String(text[..<end]) : trimmed) + "…"
    }

    /// `text` wrapped to `width` in at most `count` lines, the last shortened at a word with an
    /// ellipsis when more would be needed.
    public static func lines(_ text: String, width: Int, atMost count: Int) -> [String] {
        let all = lines(text, width: width)
        guard count > 0, all.count > count else { return all }
        return Array(all.prefix(count - 1)) + [shortened(all[(count - 1)...].joined(separator: " "), width: max(2, width))]
    }
}
