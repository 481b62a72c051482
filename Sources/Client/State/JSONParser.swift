import Shared

/// Reads JSON text into a `JSONValue`, keeping object key order; small and strict (RFC 8259),
/// for the client's own state files.
struct JSONParser {
    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0
    /// Deeper nesting than any state file needs is refused rather than risking the stack.
    private static let maximumDepth = 64

    /// Parses one complete document; throws naming the byte offset of the first problem.
    static func parse(_ text: String) throws(ValueParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(text.utf8))
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.offset == parser.bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func failure(_ why: String) -> ValueParseError {
        ValueParseError("invalid JSON at byte \(offset): \(why)")
    }

    private var next: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = next, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    private mutating func expect(_ word: String) throws(ValueParseError) {
        let expected = Array(word.utf8)
        guard bytes.count - offset >= expected.count, Array(bytes[offset..<offset + expected.count]) == expected else {
            throw failure("expected '\(word)'")
        }
        offset += expected.count
    }

    private mutating func parseValue() throws(ValueParseError) -> JSONValue {
        guard let byte = next else { throw failure("unexpected end of text") }
        switch byte {
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected character")
        }
    }

    private mutating func enter() throws(ValueParseError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested too deeply") }
        offset += 1
    }

    private mutating func parseArray() throws(ValueParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var elements: [JSONValue] = []
        skipWhitespace()
        if next == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch next {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"): offset += 1; return .array(elements)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    private mutating func parseObject() throws(ValueParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if next == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard next == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard next == UInt8(ascii: ":") else { throw failure("expected ':'") }
            offset += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            switch next {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"): offset += 1; return .object(members)
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func parseNumber() throws(ValueParseError) -> JSONValue {
        let start = offset
        func digits() -> Int {
            let from = offset
            while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
            return offset - from
        }
        if next == UInt8(ascii: "-") { offset += 1 }
        let leadingZero = next == UInt8(ascii: "0")
        let integerDigits = digits()
        guard integerDigits > 0, !(leadingZero && integerDigits > 1) else { throw failure("malformed number") }
        var isInteger = true
        if next == UInt8(ascii: ".") {
            offset += 1
            isInteger = false
            guard digits() > 0 else { throw failure("malformed number") }
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            offset += 1
            isInteger = false
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { offset += 1 }
            guard digits() > 0 else { throw failure("malformed number") }
        }
        let text = String(decoding: bytes[start..<offset], as: UTF8.self)
        if isInteger, let value = Int64(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else { throw failure("number out of range") }
        return .double(value)
    }

    private mutating func parseString() throws(ValueParseError) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        // Runs between escapes are copied whole; they start and end at ASCII bytes, so they are
        // complete UTF-8 (the text came from a valid `String`).
        var runStart = offset
        func flushRun() {
            scalars.append(contentsOf: String(decoding: bytes[runStart..<offset], as: UTF8.self).unicodeScalars)
        }
        while true {
            guard let byte = next else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                flushRun()
                offset += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRun()
                offset += 1
                scalars.append(try parseEscape())
                runStart = offset
            case 0x00..<0x20:
                throw failure("control character in string")
            default:
                offset += 1
            }
        }
    }

    private mutating func parseEscape() throws(ValueParseError) -> Unicode.Scalar {
        guard let byte = next else { throw failure("unterminated escape") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                // A character outside the BMP arrives as a surrogate pair: \uD83D\uDE00.
                guard next == UInt8(ascii: "\\") else { throw failure("unpaired surrogate") }
                offset += 1
                guard next == UInt8(ascii: "u") else { throw failure("unpaired surrogate") }
                offset += 1
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("unpaired surrogate") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw failure("unpaired surrogate") }
            return scalar
        default:
            throw failure("unknown escape")
        }
    }

    private mutating func parseHex4() throws(ValueParseError) -> UInt32 {
        guard bytes.count - offset >= 4,
              let value = UInt32(String(decoding: bytes[offset..<offset + 4], as: UTF8.self), radix: 16),
              bytes[offset..<offset + 4].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw failure("expected four hex digits") }
        offset += 4
        return value
    }
}
