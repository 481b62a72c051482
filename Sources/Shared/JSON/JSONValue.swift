import Foundation

/// The one JSON writer: `--json` output, the export's snaps.json, the admin reports, the server's
/// JSON log lines and the bench's reports, with object keys kept in the order they were given so
/// output is stable and reads the way the table view does.
///
/// Reading JSON goes through Foundation (`parse`, Codable). Writing does not, for a measured
/// reason: `JSONEncoder` writes the members of a keyed container in hash order, which changes
/// from one process to the next (the same object came out as `{"mid":3,"alpha":2,…}` and in
/// another order on the next run), so `snapshare feed --json` would reorder its keys on every
/// call and defeat anyone diffing it. Its `.sortedKeys` is stable but alphabetical, losing
/// the table's order. The writer below is the few lines that keep the given order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in order; duplicate keys are written as given, so callers should not make them.
    case object([(key: String, value: JSONValue)])

    /// The value of `key` in an object (the first one), or nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a `.string`, or nil.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// Valid JSON without a trailing newline: compact, or indented by two spaces per level.
    ///
    /// Non-finite doubles, which JSON cannot express, become `null`.
    public func toJSON(pretty: Bool = false) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? Self.number(value) : "null"
        case .string(let text): Self.writeString(text, to: &output)
        case .array(let elements):
            writeContainer(elements, open: "[", close: "]", to: &output, pretty: pretty, indent: indent) { element, output in
                element.write(to: &output, pretty: pretty, indent: indent + 1)
            }
        case .object(let members):
            writeContainer(members, open: "{", close: "}", to: &output, pretty: pretty, indent: indent) { member, output in
                Self.writeString(member.key, to: &output)
                output += pretty ? ": " : ":"
                member.value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
        }
    }

    private func writeContainer<Element>(
        _ elements: [Element], open: String, close: String, to output: inout String, pretty: Bool, indent: Int,
        writeElement: (Element, inout String) -> Void
    ) {
        output += open
        guard !elements.isEmpty else {
            output += close
            return
        }
        let inner = pretty ? "\n" + String(repeating: "  ", count: indent + 1) : ""
        for (index, element) in elements.enumerated() {
            if index > 0 { output += "," }
            output += inner
            writeElement(element, &output)
        }
        output += pretty ? "\n" + String(repeating: "  ", count: indent) + close : close
    }

    /// Swift's shortest round-trip form is JSON already (`1.0`, `1e-05`, `1e+20`), once finite.
    private static func number(_ value: Double) -> String {
        value.description
    }

    /// Escapes what JSON requires: quote, backslash and C0 controls. Everything else, including
    /// non-ASCII, passes through as UTF-8.
    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Keeps the literal's order, which is the point of an ordered object.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONValue: Decodable {
    /// Reads any JSON value; numbers that are whole and fit 64 bits become `.int`. Objects come
    /// back in no particular order (Foundation keeps none).
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            self = .object(try object.allKeys.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let flag = try? value.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? value.decode(Int64.self) {
                self = .int(number)
            } else if let number = try? value.decode(Double.self) {
                self = .double(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    /// Parses JSON text with Foundation's decoder.
    public static func parse(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension JSONValue {
    /// A value built the way Foundation's JSON writer takes it (dictionaries, arrays, strings,
    /// integers, doubles, booleans, nil and NSNull), as JSON, with each dictionary's keys sorted,
    /// so the bench's reports go through the one writer too. Nil for anything else.
    public init?(foundation value: Any) {
        switch value {
        case let flag as Bool: self = .bool(flag)
        case let number as Int: self = .int(Int64(number))
        case let number as Int64: self = .int(number)
        case let number as UInt64 where number <= UInt64(Int64.max): self = .int(Int64(number))
        case let number as UInt32: self = .int(Int64(number))
        case let number as Double: self = .double(number)
        case let text as String: self = .string(text)
        case is NSNull: self = .null
        case let array as [Any]:
            var elements: [JSONValue] = []
            for element in array {
                guard let converted = JSONValue(foundation: element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        case let dictionary as [String: Any]:
            var members: [(key: String, value: JSONValue)] = []
            for key in dictionary.keys.sorted() {
                guard let converted = JSONValue(foundation: dictionary[key]!) else { return nil }
                members.append((key, converted))
            }
            self = .object(members)
        default: return nil
        }
    }
}
