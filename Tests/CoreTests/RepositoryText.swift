import Foundation

/// The repository's own files as text, for the tests that hold a document to the code: where the
/// repository is, the sections, tables, code spans and links of its Markdown, and its Swift
/// sources with the comments taken out.
enum RepositoryText {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A file of the repository, by its path from the root.
    static func read(_ relative: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
    }

    /// Whether a file or folder is at this path from the root.
    static func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path)
    }

    /// Every file and folder below these folders of the root, by its path from the root.
    static func paths(under folders: [String]) -> [String] {
        folders.flatMap { folder -> [String] in
            let base = root.appendingPathComponent(folder)
            let found =
                FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL } ?? []
            return [folder] + found.map { folder + "/" + $0.path.dropFirst(base.path.count + 1) }
        }
    }

    /// The Swift files below a folder of the root, each with its path from the root and its text.
    static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
        try paths(under: [folder]).filter { $0.hasSuffix(".swift") }.sorted().map { ($0, try read($0)) }
    }

    // MARK: Markdown

    /// The lines of `text` outside fenced code blocks (a heading inside a block is not one).
    static func linesOutsideCode(_ text: Substring) -> [Substring] {
        var inside = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") {
                inside.toggle()
                return false
            }
            return !inside
        }
    }

    /// The text under the heading line `heading` ("## Modules"), up to the next heading of its
    /// level or above; nil when there is no such heading.
    static func section(_ heading: String, of text: String) -> Substring? {
        guard let start = text.range(of: "\n" + heading + "\n") ?? (text.hasPrefix(heading + "\n") ? text.range(of: heading + "\n") : nil)
        else { return nil }
        let level = heading.prefix { $0 == "#" }.count
        var inside = false
        var end = text.endIndex
        var index = start.upperBound
        while index < text.endIndex {
            let lineEnd = text[index...].firstIndex(of: "\n") ?? text.endIndex
            let line = text[index..<lineEnd]
            if line.hasPrefix("```") { inside.toggle() }
            let hashes = line.prefix { $0 == "#" }.count
            if !inside, hashes > 0, hashes <= level, line.dropFirst(hashes).hasPrefix(" ") {
                end = index
                break
            }
            index = lineEnd < text.endIndex ? text.index(after: lineEnd) : text.endIndex
        }
        return text[start.upperBound..<end]
    }

    /// The first fenced code block of `text`: its lines.
    static func firstCodeBlock(_ text: Substring) -> [Substring]? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let open = lines.firstIndex(where: { $0.hasPrefix("```") }),
            let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") })
        else { return nil }
        return Array(lines[(open + 1)..<close])
    }

    /// The cells of a table row (`| a | b |`), trimmed; `\|` inside a cell stays a bar. Nil for a
    /// line that is not a row, and for a table's rule (`|---|---|`).
    static func cells(_ line: Substring) -> [String]? {
        guard line.hasPrefix("|"), line.hasSuffix("|") else { return nil }
        var cells: [String] = []
        var cell = ""
        var previous: Character = " "
        for character in line.dropFirst() {
            if character == "|" && previous != "\\" {
                cells.append(cell.trimmingCharacters(in: .whitespaces))
                cell = ""
            } else {
                cell.append(character)
            }
            previous = character
        }
        if cells.allSatisfy({ $0.allSatisfy { $0 == "-" || $0 == ":" } }) { return nil }
        return cells
    }

    /// The text of every `code` span, in order.
    static func codeSpans(_ text: Substring) -> [String] {
        linesOutsideCode(text).flatMap { line in line.matches(of: /`([^`]+)`/).map { String($0.1) } }
    }

    /// The target of every Markdown link and image outside code (`[text](target)`).
    static func linkTargets(_ text: Substring) -> [String] {
        linesOutsideCode(text).flatMap { line in line.matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) } }
    }

    /// The anchors GitHub gives the headings of `text`: lower case, spaces made dashes, every
    /// character but letters, digits, `-` and `_` left out, a repeated one numbered.
    static func anchors(_ text: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in linesOutsideCode(text[...]) where line.hasPrefix("#") {
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            let slug = String(
                title.lowercased().compactMap { character -> Character? in
                    if character == " " { return "-" }
                    return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
                })
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return anchors
    }

    // MARK: Swift

    /// Swift source with its comments left out (string literals kept), lines kept in place.
    static func withoutComments(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        var inString = false
        while index < text.endIndex {
            let rest = text[index...]
            if inString {
                if rest.hasPrefix("\\"), text.index(after: index) < text.endIndex {
                    result.append(contentsOf: rest.prefix(2))
                    index = text.index(index, offsetBy: 2)
                    continue
                }
                if rest.hasPrefix("\"") || rest.hasPrefix("\n") { inString = false }
                result.append(text[index])
                index = text.index(after: index)
            } else if rest.hasPrefix("//") {
                index = rest.firstIndex(of: "\n") ?? text.endIndex
            } else if rest.hasPrefix("/*") {
                index = rest.range(of: "*/")?.upperBound ?? text.endIndex
            } else {
                if rest.hasPrefix("\""), !rest.hasPrefix("\"\"\"") { inString = true }
                result.append(text[index])
                index = text.index(after: index)
            }
        }
        return result
    }

    /// The text between the bracket at `open` and the one that closes it (brackets inside string
    /// literals and nested ones skipped); nil when it never closes.
    static func balanced(_ text: String, from open: String.Index) -> Substring? {
        let pairs: [Character: Character] = ["(": ")", "[": "]", "{": "}"]
        guard let first = pairs[text[open]] else { return nil }
        var closers: [Character] = [first]
        var inString = false
        var index = text.index(after: open)
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if character == "\\" { index = text.index(after: index) } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if let closer = pairs[character] {
                closers.append(closer)
            } else if character == closers.last {
                closers.removeLast()
                if closers.isEmpty { return text[text.index(after: open)..<index] }
            }
            if index < text.endIndex { index = text.index(after: index) }
        }
        return nil
    }

    /// An argument list split at its top-level commas, each argument trimmed.
    static func arguments(_ list: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var inString = false
        var start = list.startIndex
        var index = list.startIndex
        while index < list.endIndex {
            let character = list[index]
            if inString {
                if character == "\\" { index = list.index(after: index) } else if character == "\"" { inString = false }
            } else if character == "\"" {
                inString = true
            } else if "([{".contains(character) {
                depth += 1
            } else if ")]}".contains(character) {
                depth -= 1
            } else if character == ",", depth == 0 {
                parts.append(list[start..<index])
                start = list.index(after: index)
            }
            if index < list.endIndex { index = list.index(after: index) }
        }
        parts.append(list[start..<list.endIndex])
        return parts.map { $0.trimmingCharacters(in: .whitespacesAndNewlines)[...] }.filter { !$0.isEmpty }
    }
}
