/// Text from a photo provider made safe to store and show: control characters (which could
/// drive a terminal: escape sequences in a Flickr title) and bidirectional overrides (which
/// could make text read differently than it is) become spaces, runs of blanks collapse to one
/// space, and the result is cut on a character boundary to fit its wire field.
enum ProviderText {
    /// `text` cleaned and trimmed, at most `maxBytes` bytes of UTF-8.
    static func clean(_ text: String, maxBytes: Int) -> String {
        var result = ""
        var pendingSpace = false
        for character in text {
            if character.isWhitespace || character.unicodeScalars.contains(where: isUnsafe) {
                pendingSpace = !result.isEmpty
                continue
            }
            let addition = pendingSpace ? " " + String(character) : String(character)
            guard result.utf8.count + addition.utf8.count <= maxBytes else { break }
            result += addition
            pendingSpace = false
        }
        return result
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        // Bidirectional embeddings, overrides and isolates.
        return (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
