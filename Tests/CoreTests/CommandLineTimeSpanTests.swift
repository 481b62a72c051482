import Testing

@testable import CommandLineParsing

private let wellFormed: [(String, Int64)] = [
    ("7d", 604_800_000), ("12h", 43_200_000), ("30m", 1_800_000), ("45s", 45_000), ("500ms", 500),
    ("1d12h", 129_600_000), ("2w", 1_209_600_000), ("0s", 0), ("1m30s", 90_000), ("007s", 7000),
]

@Suite struct CommandLineTimeSpanTests {
    @Test(arguments: wellFormed)
    func wellFormedSpansParse(text: String, milliseconds: Int64) throws {
        #expect(try TimeSpan(parsing: text).milliseconds == milliseconds)
    }

    @Test func secondsRoundDown() throws {
        #expect(try TimeSpan(parsing: "1500ms").seconds == 1)
        #expect(try TimeSpan(parsing: "7d").seconds == 604_800)
    }

    @Test(arguments: [
        ("", "invalid duration '': expected a number and a unit such as 30m"),
        ("7", "invalid duration '7': missing unit after 7 (use w, d, h, m, s or ms)"),
        ("7x", "invalid duration '7x': unknown unit 'x' (use w, d, h, m, s or ms)"),
        ("d", "invalid duration 'd': expected a number before 'd'"),
        ("1d 2h", "invalid duration '1d 2h': expected a number before ' 2h'"),
        ("-5s", "invalid duration '-5s': expected a number before '-5s'"),
        ("1.5h", "invalid duration '1.5h': unknown unit '.5h' (use w, d, h, m, s or ms)"),
        ("99999999999999999999s", "invalid duration '99999999999999999999s': too large"),
        ("20000000000w", "invalid duration '20000000000w': too large"),
        ("9223372036854775807ms1ms", "invalid duration '9223372036854775807ms1ms': too large"),
        ("５s", "invalid duration '５s': expected a number before '５s'"),
    ])
    func garbageIsRefusedWithTheText(text: String, message: String) {
        #expect(throws: ValueParseError(message)) { try TimeSpan(parsing: text) }
    }

    @Test func theLargestSpanFits() throws {
        #expect(try TimeSpan(parsing: "9223372036854775807ms").milliseconds == .max)
    }

    @Test func descriptionRoundTrips() throws {
        for text in ["1d12h", "500ms", "0s", "2w3d4h5m6s7ms", "45s"] {
            #expect(try TimeSpan(parsing: text).description == text)
        }
        #expect(try TimeSpan(parsing: "90m").description == "1h30m")
        #expect(TimeSpan(milliseconds: -1500).description == "-1s500ms")
        #expect(TimeSpan(milliseconds: .min).description.hasPrefix("-"))
    }
}
