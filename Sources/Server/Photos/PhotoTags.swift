/// Flickr-style tag strings: each tag lower-case with spaces and punctuation removed
/// (`Ann Arbor` becomes `annarbor`), tags separated by single spaces, no repeats. Machine tags
/// (`geo:lat=42.28`) are kept whole; readers that want plain tags drop those with a colon.
enum PhotoTags {
    /// One word or phrase as a Flickr tag; empty when nothing is left.
    static func tag(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.lowercased().unicodeScalars.filter {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0)
                }))
    }

    /// Tags joined into one string, empty ones and repeats left out, first occurrence kept.
    static func join(_ tags: [String]) -> String {
        var seen = Set<String>()
        return tags.filter { !$0.isEmpty && seen.insert($0).inserted }.joined(separator: " ")
    }

    /// A free-form tag list (spaces or commas between tags) in the same form: each tag kept as
    /// written if it is a machine tag, otherwise normalised.
    static func normalize(_ text: String) -> String {
        let words = text.split { $0 == " " || $0 == "," || $0 == "\t" }.map(String.init)
        return join(words.map { $0.contains(":") ? $0.lowercased() : tag($0) })
    }
}
