/// The request line and headers of a plain HTTP/1.x request, as far as the metrics listener
/// needs them: the method and the path. Parsed from bytes as they arrive, with the head's size
/// capped before anything past it is kept.
struct HTTPRequestHead: Sendable, Equatable {
    /// The longest head read (request line and headers); a longer one is refused.
    static let maximumBytes = 8192

    var method: String
    /// The target's path, without any query.
    var path: String

    enum Parse: Sendable, Equatable {
        /// The blank line ending the head has not arrived yet.
        case incomplete
        case complete(HTTPRequestHead)
        /// Not an HTTP/1.x request head (or over `maximumBytes`): why, for a 400.
        case malformed(String)
    }

    /// Parses what has arrived so far.
    static func parse(_ bytes: [UInt8]) -> Parse {
        guard let end = headEnd(bytes) else {
            return bytes.count >= maximumBytes ? .malformed("request head over \(maximumBytes) bytes") : .incomplete
        }
        guard end <= maximumBytes else { return .malformed("request head over \(maximumBytes) bytes") }
        guard let text = String(validating: bytes[..<end], as: UTF8.self) else { return .malformed("request head not UTF-8") }
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isUppercase }) else {
            return .malformed("bad request line")
        }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else { return .malformed("not HTTP/1.x") }
        guard parts[1].hasPrefix("/") else { return .malformed("the target is not a path") }
        for header in lines.dropFirst() where !header.isEmpty {
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex,
                !header[..<colon].contains(where: { $0 == " " || $0 == "\t" })
            else {
                return .malformed("bad header line")
            }
        }
        let path = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        return .complete(HTTPRequestHead(method: String(parts[0]), path: String(path)))
    }

    /// The offset of the CRLF CRLF ending the head, excluding it; nil until it arrives.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }
}
