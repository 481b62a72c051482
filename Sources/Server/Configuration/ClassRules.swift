import Wire

/// What the server accepts as a class's handle, name and join code. They are the server's own
/// until the protocol carries classes; then they move to `InputRules`, for the client to check
/// before sending, and docs/PROTOCOL.md states them.
enum ClassRules {
    /// A class's handle (`cs193p-f26`): 2 to 32 characters, lower-case letters, digits and `-`,
    /// starting with a letter or digit. Handles are what commands type, so no upper case to confuse.
    static func validateHandle(_ handle: String) -> String? {
        let scalars = handle.unicodeScalars
        guard (2...32).contains(scalars.count) else { return "class handles are 2 to 32 characters" }
        let allowed: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
        guard scalars.allSatisfy({ allowed($0) || $0 == "-" }) else {
            return "class handles use only lower-case letters, digits and '-'"
        }
        guard let first = scalars.first, allowed(first) else { return "class handles start with a lower-case letter or digit" }
        return nil
    }

    /// A class's name (`CS193P Fall 2026`): 1 to 100 characters after trimming spaces, no control characters.
    static func normalizedName(_ raw: String) -> Result<String, InputError> {
        InputRules.normalizedText(raw, maxCharacters: 100, empty: "a class name cannot be empty", plural: "class names")
    }

    /// A class's join code: 4 to 64 characters, no spaces or control characters (students type it).
    static func validateCode(_ code: String) -> String? {
        guard (4...64).contains(code.count) else { return "class codes are 4 to 64 characters" }
        guard !code.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) else {
            return "class codes cannot contain spaces or control characters"
        }
        return nil
    }
}
