import Foundation

/// A file's path as a student types or drops it into the app: dragging a file onto a terminal
/// types it quoted as a shell word (`'~/Pictures/my photo.png'`, `/home/me/my\ photo.png`) or
/// as a `file://` address, and a path typed by hand may have spaces unquoted. `candidates` are
/// the paths it may mean, most literal first, each with `~` expanded; the first that exists is
/// the one meant, and when none does, the last (the most read into) is the one to name.
enum TypedPath {
    static func candidates(_ typed: String) -> [String] {
        let text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        var found: [String] = []
        func add(_ path: String?) {
            guard let path, !path.isEmpty else { return }
            let expanded = (path as NSString).expandingTildeInPath
            if !found.contains(expanded) { found.append(expanded) }
        }
        add(text)
        if let word = shellWord(text) { add(word) }
        if text.hasPrefix("file://"), let url = URL(string: text), url.isFileURL { add(url.path) }
        return found
    }

    /// `text` read as one shell word (quotes and backslashes as a shell reads them), or nil when
    /// it is not one: an unclosed quote, or spaces outside quotes.
    static func shellWord(_ text: String) -> String? {
        var word = ""
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                // Inside double quotes a backslash escapes only these; elsewhere any character.
                if quote == "\"" && !"\"\\$`".contains(character) { word.append("\\") }
                word.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case ("'", "'"), ("\"", "\""): quote = nil
            case ("'", _): word.append(character)
            case (_, "\\"): escaped = true
            case (nil, "'"), (nil, "\""): quote = character
            case (nil, " "), (nil, "\t"): return nil
            default: word.append(character)
            }
        }
        return quote == nil && !escaped ? word : nil
    }
}
