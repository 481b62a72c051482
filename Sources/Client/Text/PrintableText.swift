import TerminalUI

/// Text from a server or a file made safe for a terminal line: C0/C1 control characters and
/// DEL (which could move the cursor or start an escape sequence) become `?`.
enum PrintableText {
    /// `text` with every control character replaced by `?`.
    static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { cleaned.append(isControl(scalar) ? "?" : scalar) }
        return String(cleaned)
    }

    /// Whether `scalar` is a C0/C1 control character or DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool { DisplayWidth.isControl(scalar) }
}
