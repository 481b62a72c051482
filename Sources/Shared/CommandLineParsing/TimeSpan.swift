/// A length of time typed on a command line: `7d`, `12h`, `30m`, `45s`, `500ms`, `1d12h`.
///
/// Named `TimeSpan` rather than `Duration` so it does not shadow the standard library's type.
/// Units are `w`, `d`, `h`, `m`, `s` and `ms`; parts add up (`1h1h` is `2h`), each part needs a
/// unit, and the total must fit in `Int64` milliseconds.
public struct TimeSpan: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// The forms a duration is written in, for a message about one that is not.
    public static let forms =
        "a number and a unit, such as 30m, 12h, 7d or 2w, or several together, such as 1d12h (units: w, d, h, m, s, ms)"

    /// Whole seconds, rounding down (`1500ms` is 1 second).
    public var seconds: Int64 { milliseconds / 1000 }

    private static let units: [(suffix: String, milliseconds: Int64)] = [
        ("w", 604_800_000), ("d", 86_400_000), ("h", 3_600_000), ("ms", 1), ("m", 60_000), ("s", 1000),
    ]

    /// Parses text such as `1d12h`; throws naming the text for anything else.
    public init(parsing text: String) throws(ValueParseError) {
        func failure(_ why: String) -> ValueParseError {
            ValueParseError("invalid duration '\(text)': \(why)")
        }
        guard !text.isEmpty else { throw failure("expected a number and a unit such as 30m") }
        var rest = Substring(text)
        var total: Int64 = 0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { throw failure("expected a number before '\(rest)'") }
            rest = rest.dropFirst(digits.count)
            // "ms" is checked before "m", so "500ms" is not 500 minutes followed by garbage.
            guard let unit = Self.units.first(where: { rest.hasPrefix($0.suffix) }) else {
                throw failure(
                    rest.isEmpty
                        ? "missing unit after \(digits) (use w, d, h, m, s or ms)"
                        : "unknown unit '\(rest)' (use w, d, h, m, s or ms)")
            }
            rest = rest.dropFirst(unit.suffix.count)
            guard let count = Int64(digits) else { throw failure("too large") }
            let (part, overflowA) = count.multipliedReportingOverflow(by: unit.milliseconds)
            let (sum, overflowB) = total.addingReportingOverflow(part)
            guard !overflowA, !overflowB else { throw failure("too large") }
            total = sum
        }
        milliseconds = total
    }

    /// The span in the form it is parsed from, largest units first: `1d12h`, `500ms`, `0s`.
    public var description: String {
        guard milliseconds != 0 else { return "0s" }
        var rest = milliseconds.magnitude
        var text = milliseconds < 0 ? "-" : ""
        for unit in Self.units.sorted(by: { $0.milliseconds > $1.milliseconds }) {
            let size = UInt64(unit.milliseconds)
            if rest >= size {
                text += "\(rest / size)\(unit.suffix)"
                rest %= size
            }
        }
        return text
    }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.milliseconds < rhs.milliseconds }
}
