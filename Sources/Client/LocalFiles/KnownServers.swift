/// The `known_servers` file: one `host:port sha256-hex` line per trusted server, like ssh's
/// `known_hosts`. Blank lines and `#` comments are kept when the file is rewritten.
struct KnownServers: Equatable {
    private enum Line: Equatable {
        case entry(server: String, fingerprint: String)
        case other(String)

        var server: String? {
            if case .entry(let server, _) = self { return server }
            return nil
        }
    }

    private var lines: [Line] = []

    init() {}

    /// Parses the file's text; `file` names it in the error for a malformed line.
    init(parsing text: String, file: String) throws(ClientStateError) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") {
                lines.append(.other(String(line)))
                continue
            }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, let fingerprint = Self.normalized(String(fields[1])) else {
                throw .corrupt(file: file, reason: "line \(number + 1) is not 'host:port sha256-hex'")
            }
            lines.append(.entry(server: String(fields[0]), fingerprint: fingerprint))
        }
        // split keeps an empty piece after the final newline; writing adds that newline back.
        if lines.last == .other("") { lines.removeLast() }
    }

    /// The fingerprint trusted for `server`, or nil.
    func fingerprint(for server: String) -> String? {
        for case .entry(let name, let fingerprint) in lines where name == server { return fingerprint }
        return nil
    }

    /// Trusts `fingerprint` for `server`, replacing an earlier line in place.
    mutating func set(_ fingerprint: String, for server: String) {
        let entry = Line.entry(server: server, fingerprint: fingerprint)
        guard let index = lines.firstIndex(where: { $0.server == server }) else {
            lines.append(entry)
            return
        }
        lines[index] = entry
        // A hand-edited file may list a server twice; the first line wins and the rest go.
        lines = lines.enumerated().filter { $0.offset <= index || $0.element.server != server }.map(\.element)
    }

    /// Forgets `server`; true when it was known.
    mutating func remove(_ server: String) -> Bool {
        let before = lines.count
        lines.removeAll { $0.server == server }
        return lines.count != before
    }

    /// The file's text, one line each, ending with a newline.
    var text: String {
        lines.map { line in
            switch line {
            case .entry(let server, let fingerprint): return "\(server) \(fingerprint)\n"
            case .other(let text): return text + "\n"
            }
        }.joined()
    }

    /// Lowercase hex without separators, from 64 hex digits optionally in colon-separated pairs.
    static func normalized(_ fingerprint: String) -> String? {
        let hex = fingerprint.filter { $0 != ":" }.lowercased()
        guard hex.count == 64, hex.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
        if fingerprint.contains(":") {
            // Colons only as pair separators: AB:CD:..., not A:BCD.
            let pairs = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
            guard pairs.count == 32, pairs.allSatisfy({ $0.count == 2 }) else { return nil }
        }
        return hex
    }
}
