/// A page in the Prometheus text exposition format, version 0.0.4: each family's `# HELP` and
/// `# TYPE` lines, then its samples, `name{label="value"} number`. Counters' names end in
/// `_total`; a histogram writes `_bucket{le=…}` lines (cumulative, ending at `+Inf`), `_sum`
/// and `_count`.
struct PrometheusText {
    /// What `GET /metrics` answers with.
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    enum Kind: String {
        case counter, gauge, histogram
    }

    private(set) var text = ""

    /// A family with these samples (none is fine: the family is still declared).
    mutating func family(_ name: String, _ kind: Kind, help: String, _ samples: [(labels: [(String, String)], value: Double)]) {
        declare(name, kind, help: help)
        for sample in samples { line(name, sample.labels, Self.number(sample.value)) }
    }

    /// A family of one unlabelled sample.
    mutating func family(_ name: String, _ kind: Kind, help: String, _ value: Double) {
        family(name, kind, help: help, [([], value)])
    }

    /// A histogram family: per label set, its buckets, sum and count.
    mutating func histograms(_ name: String, help: String, _ series: [(labels: [(String, String)], counts: HistogramCounts)]) {
        declare(name, .histogram, help: help)
        for (labels, counts) in series {
            for (bound, count) in counts.cumulative { line(name + "_bucket", labels + [("le", Self.number(bound))], String(count)) }
            line(name + "_sum", labels, Self.number(counts.sumSeconds))
            line(name + "_count", labels, String(counts.count))
        }
    }

    private mutating func declare(_ name: String, _ kind: Kind, help: String) {
        text += "# HELP \(name) \(Self.escaped(help, quotes: false))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    private mutating func line(_ name: String, _ labels: [(String, String)], _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escaped($0.1, quotes: true))\"" }.joined(separator: ",") + "}"
        }
        text += " \(value)\n"
    }

    /// A sample value or bucket bound: integers without a fraction, others as Swift prints them
    /// (`0.0025`, `1e-05`), both of which the format's float syntax takes.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Backslash and newline escaped (and in a label value, the double quote), as the format asks.
    static func escaped(_ text: String, quotes: Bool) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\"" where quotes: result += "\\\""
            default: result.append(character)
            }
        }
        return result
    }
}
