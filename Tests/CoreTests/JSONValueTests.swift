import Foundation
import JSON
import Testing

@Suite struct JSONValueTests {
    @Test func scalarsSerialize() {
        #expect(JSONValue.null.toJSON() == "null")
        #expect(JSONValue.bool(true).toJSON() == "true")
        #expect(JSONValue.int(-42).toJSON() == "-42")
        #expect(JSONValue.int(.min).toJSON() == "-9223372036854775808")
        #expect(JSONValue.double(1.5).toJSON() == "1.5")
        #expect(JSONValue.double(2).toJSON() == "2.0")
        #expect(JSONValue.double(1e-7).toJSON() == "1e-07")
        #expect(JSONValue.double(.nan).toJSON() == "null")
        #expect(JSONValue.double(.infinity).toJSON() == "null")
    }

    @Test func quotesBackslashesAndControlsAreEscaped() {
        #expect(JSONValue.string("say \"hi\" \\ bye").toJSON() == #""say \"hi\" \\ bye""#)
        #expect(JSONValue.string("a\nb\tc\rd\u{08}e\u{0C}").toJSON() == #""a\nb\tc\rd\be\f""#)
        #expect(JSONValue.string("\u{00}\u{01}\u{1B}\u{1F}").toJSON() == #""\u0000\u0001\u001b\u001f""#)
        #expect(JSONValue.string("/ \u{7F}").toJSON() == "\"/ \u{7F}\"")
    }

    @Test func nonASCIIPassesThroughAsUTF8() {
        let text = "café 写真 📷 e\u{301} \u{2028}"
        #expect(JSONValue.string(text).toJSON() == "\"\(text)\"")
    }

    @Test func objectKeysKeepTheirOrder() {
        let value: JSONValue = ["zebra": 1, "apple": [true, nil, "x"], "mango": ["inner": 2.5, "a": [:]]]
        #expect(value.toJSON() == #"{"zebra":1,"apple":[true,null,"x"],"mango":{"inner":2.5,"a":{}}}"#)
        #expect(value["apple"] == [true, nil, "x"])
        #expect(value["missing"] == nil)
        #expect(JSONValue.string("s")["k"] == nil)
    }

    @Test func prettyOutputIndentsByTwoWithoutATrailingNewline() {
        let value: JSONValue = ["feed": "cats", "snaps": [1, 2], "empty": [], "owner": ["name": "ana"]]
        #expect(
            value.toJSON(pretty: true) == """
                {
                  "feed": "cats",
                  "snaps": [
                    1,
                    2
                  ],
                  "empty": [],
                  "owner": {
                    "name": "ana"
                  }
                }
                """)
        #expect(JSONValue.array([]).toJSON(pretty: true) == "[]")
    }

    @Test func equalityComparesObjectsInOrder() {
        #expect(JSONValue.object([("a", 1), ("b", 2)]) == ["a": 1, "b": 2])
        #expect(JSONValue.object([("a", 1), ("b", 2)]) != ["b": 2, "a": 1])
        #expect(JSONValue.int(1) != .double(1))
    }

    // Reading is Foundation's (JSONValue.parse); objects come back in no particular order.

    /// `value` with every object's members sorted by key, to compare what a parse gave back.
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map(sorted))
        case .object(let members): return .object(members.map { ($0.key, sorted($0.value)) }.sorted { $0.0 < $1.0 })
        default: return value
        }
    }

    @Test func serializedValuesParseBackUnchanged() throws {
        let value: JSONValue = [
            "text": "q\"b\\n\n\u{01}é📷", "n": -12, "big": .int(.max), "f": 0.25, "e": 1e300,
            "list": [nil, false, true, [], [:]], "nested": ["k": ["deep": "v"]],
        ]
        #expect(Self.sorted(try JSONValue.parse(value.toJSON())) == Self.sorted(value))
        #expect(Self.sorted(try JSONValue.parse(value.toJSON(pretty: true))) == Self.sorted(value))
    }

    @Test func theParserReadsEscapesAndSurrogatePairs() throws {
        #expect(try JSONValue.parse(#" "\u00e9\uD83D\uDCF7\/\b" "#) == .string("é📷/\u{08}"))
        #expect(try JSONValue.parse("-0") == .int(0))
        #expect(try JSONValue.parse("99999999999999999999") == .double(1e20))
    }

    @Test(arguments: [
        "", "nul", "{\"a\" 1}", "01", "1.", "-", "\"\\x\"", "\"a\nb\"",
        "\"\\u12G4\"", "[1] 2", "{1:2}", "\"open",
    ])
    func malformedJSONIsRefused(text: String) {
        #expect(throws: (any Error).self) { try JSONValue.parse(text) }
    }

    @Test("a Foundation-style report goes through the one writer, its keys sorted; a value of another kind is refused")
    func foundationValuesConvert() {
        let object: [String: Any] = ["b": 2, "a": [1.5, "x", true, NSNull()], "c": ["z": UInt64(7)]]
        #expect(JSONValue(foundation: object)?.toJSON() == #"{"a":[1.5,"x",true,null],"b":2,"c":{"z":7}}"#)
        #expect(JSONValue(foundation: ["when": Date()]) == nil)
    }
}
