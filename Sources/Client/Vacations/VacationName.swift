/// The rules for vacation names, which are also file names in the vacations folder.
enum VacationName {
    /// The vacation used when none is named; it is created on first use.
    static let defaultName = "My Vacation"
    /// What a vacation's file name ends with.
    static let fileExtension = ".vacation"
    /// Longest name, in characters.
    static let maxCharacters = 64
    /// Longest name in bytes of UTF-8, so the file name stays under the usual 255-byte limit.
    static let maxBytes = 200

    /// The name with white space trimmed from both ends, or why it cannot name a vacation:
    /// empty, a path separator, a leading dot, a control character, or too long.
    static func validated(_ raw: String) -> Result<String, VacationError> {
        let name = raw.trimmedWhitespace
        func refuse(_ why: String) -> Result<String, VacationError> {
            .failure(VacationError(.invalidName, "\"\(PrintableText.clean(raw))\" cannot name a vacation: \(why)"))
        }
        guard !name.isEmpty else { return refuse("a name needs at least one visible character") }
        guard !name.contains("/") && !name.contains("\\") else { return refuse("it may not contain / or \\") }
        guard !name.hasPrefix(".") else { return refuse("it may not start with a dot") }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return refuse("it may not contain control characters")
        }
        guard name.count <= maxCharacters else { return refuse("names are at most \(maxCharacters) characters") }
        guard name.utf8.count <= maxBytes else { return refuse("names are at most \(maxBytes) bytes of UTF-8") }
        return .success(name)
    }

    /// The file name of a vacation.
    static func fileName(for name: String) -> String { name + fileExtension }

    /// The vacation a file name belongs to, or nil when it is not `NAME.vacation` with a valid name.
    static func name(fromFileName fileName: String) -> String? {
        guard fileName.hasSuffix(fileExtension) else { return nil }
        let name = String(fileName.dropLast(fileExtension.count))
        guard case .success(let valid) = validated(name), valid == name else { return nil }
        return name
    }

    /// Whether two names are the same vacation: names ignore case, so `Paris` and `paris`
    /// cannot both exist (they could not on a case-insensitive file system either).
    static func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
}
