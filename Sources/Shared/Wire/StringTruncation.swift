extension String {
    /// The longest prefix of whole characters whose UTF-8 form fits in `maxBytes`.
    public func truncatedToUTF8Count(_ maxBytes: Int) -> String {
        guard utf8.count > maxBytes else { return self }
        var result = ""
        var used = 0
        for character in self {
            let size = character.utf8.count
            if used + size > maxBytes { break }
            result.append(character)
            used += size
        }
        return result
    }
}
