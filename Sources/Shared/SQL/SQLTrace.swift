import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A record of every statement both engines run, for checking that a change to the store left
/// its SQL as it was: with `SNAPSHARE_SQL_TRACE=FILE` in the environment each statement is
/// appended to FILE as one line, the engine's name and then the SQL with its bound values
/// written in place of their placeholders, white space and comments evened out. Two runs of the
/// same suites then compare with `sort | uniq -c`, whatever numbering the placeholders had.
///
/// Off (one check of a constant) unless the variable is set; never used in production.
public enum SQLTrace {
    // Set once, before any statement runs; the file keeps each line whole (see `record`).
    private static let file: AppendOnlyFile? = {
        guard let path = getenv("SNAPSHARE_SQL_TRACE").map({ String(cString: $0) }), !path.isEmpty else { return nil }
        return try? AppendOnlyFile(path: path)
    }()

    /// Whether statements are being recorded.
    public static var isOn: Bool { file != nil }

    /// Appends one statement: `values[i]` is what placeholder i + 1 was bound to.
    public static func record(engine: String, sql: String, values: [SQLValue]) {
        guard let file else { return }
        // A statement the trace cannot record is not worth failing the statement for.
        try? file.append(engine + ": " + evenedOut(sql, values: values.map(\.traced)) + "\n")
    }

    /// `sql` with comments dropped, every run of white space made one space, and each
    /// placeholder (`?N`, `$N`, or a bare `?` counted in order) replaced by its value.
    static func evenedOut(_ sql: String, values: [String]) -> String {
        var out = ""
        var pendingSpace = false
        var nextBare = 0
        let characters = Array(sql)
        var index = 0
        var inString = false
        while index < characters.count {
            let character = characters[index]
            if inString {
                out.append(character)
                if character == "'" { inString = false }
                index += 1
                continue
            }
            if character == "-", index + 1 < characters.count, characters[index + 1] == "-" {
                while index < characters.count, characters[index] != "\n" { index += 1 }
                pendingSpace = true
                continue
            }
            if character.isWhitespace {
                pendingSpace = true
                index += 1
                continue
            }
            if pendingSpace && !out.isEmpty && !"),".contains(character) && out.last != "(" { out.append(" ") }
            pendingSpace = false
            if (character == "?" || character == "$") && !values.isEmpty {
                var end = index + 1
                while end < characters.count, characters[end].isNumber { end += 1 }
                let number: Int? =
                    end > index + 1
                    ? Int(String(characters[(index + 1)..<end]))
                    : (character == "?"
                        ? {
                            nextBare += 1
                            return nextBare
                        }() : nil)
                if let number, number >= 1, number <= values.count {
                    out += values[number - 1]
                    index = end
                    continue
                }
            }
            if character == "'" { inString = true }
            out.append(character)
            index += 1
        }
        return out
    }
}

extension SQLValue {
    /// The value as `SQLTrace` writes it: bytes by their count only (tokens differ every run).
    var traced: String {
        switch self {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): "'" + text + "'"
        case .blob(let bytes): "x'<\(bytes.count) bytes>'"
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
