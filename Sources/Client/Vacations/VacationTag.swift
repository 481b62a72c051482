/// A tag of a vacation with the number of its photos that carry it.
struct VacationTag: Sendable, Equatable {
    /// As stored: lower case.
    var name: String
    /// Photos carrying the tag (each photo counts once however often its tag string repeats it).
    var count: Int

    /// The tag as shown: its first letter capitalized, the rest lower case (`beach` → `Beach`).
    var displayName: String { Self.display(name) }

    /// `beach` → `Beach`.
    static func display(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst().lowercased()
    }

    /// The tags of a photo's tag string: split on white space, lower case, without empty
    /// tokens, without machine tags (any tag containing `:`, such as `geo:lat=42`), and each
    /// tag once even when the string repeats it.
    static func parse(_ tags: String) -> [String] {
        var seen: Set<String> = []
        var result: [String] = []
        for token in tags.split(whereSeparator: \.isWhitespace) {
            let tag = token.lowercased()
            guard !tag.contains(":"), seen.insert(tag).inserted else { continue }
            result.append(tag)
        }
        return result
    }
}
