/// What the server accepts as user names, passwords, feed names and reasons: one rule for both
/// sides, so the client refuses what the server would before sending it, in the same words.
public enum InputRules {
    /// 3 to 32 characters: letters, digits, `_`, `.`, `-`, starting with a letter or digit.
    public static func validateUsername(_ name: String) -> String? {
        let scalars = name.unicodeScalars
        guard (3...32).contains(scalars.count) else { return "user names are 3 to 32 characters" }
        guard let first = scalars.first, first.isASCIIAlphanumeric else { return "user names start with a letter or digit" }
        guard scalars.allSatisfy({ $0.isASCIIAlphanumeric || "_.-".unicodeScalars.contains($0) }) else {
            return "user names use only letters, digits, '_', '.' and '-'"
        }
        return nil
    }

    /// 8 to 1024 bytes.
    public static func validatePassword(_ password: String) -> String? {
        let count = password.utf8.count
        guard count >= 8 else { return "passwords are at least 8 characters" }
        guard count <= 1024 else { return "passwords are at most 1024 bytes" }
        return nil
    }

    /// 1 to 40 characters after trimming spaces, no control characters.
    public static func normalizedFeedName(_ raw: String) -> Result<String, InputError> {
        normalizedText(raw, maxCharacters: 40, empty: "a feed name cannot be empty", plural: "feed names")
    }

    /// A report's or a suspension's reason: 1 to 200 characters, no control characters.
    public static func normalizedReason(_ raw: String) -> Result<String, InputError> {
        normalizedText(raw, maxCharacters: 200, empty: "give a reason (what is wrong with it)", plural: "reasons")
    }

    /// A rejection's reason: like a report's, but it may be left out (empty once trimmed: no reason given).
    public static func normalizedOptionalReason(_ raw: String) -> Result<String, InputError> {
        raw.trimmingSpaces.isEmpty ? .success("") : normalizedReason(raw)
    }

    /// The rule for every name-like text field: trimmed of spaces, 1 to `maxCharacters`
    /// characters, no control characters. `plural` names the field in messages ("feed names").
    public static func normalizedText(_ raw: String, maxCharacters: Int, empty: String, plural: String) -> Result<String, InputError> {
        let text = raw.trimmingSpaces
        guard !text.isEmpty else { return .failure(InputError(empty)) }
        guard text.count <= maxCharacters else {
            return .failure(InputError("\(plural) are at most \(maxCharacters) characters, got \(text.count)"))
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(InputError("\(plural) cannot contain control characters"))
        }
        return .success(text)
    }
}

/// A rejected input with the reason shown to the user.
public struct InputError: Error, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

extension Unicode.Scalar {
    var isASCIIAlphanumeric: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
