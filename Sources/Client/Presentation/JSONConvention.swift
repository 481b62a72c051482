import JSON

/// The one shape every `--json` output follows (README, "JSON output"): keys in snake_case,
/// ids and counts as numbers, times as ISO 8601 strings in keys ending `_at`, coordinates as
/// `latitude` and `longitude`, states as lower-case words in `state`, tags as an array of
/// lower-case strings, absent values as null.
enum JSONConvention {
    /// A space-separated tag string (as the protocol carries tags) as a JSON array.
    static func tags(_ text: String) -> JSONValue {
        .array(text.split(whereSeparator: \.isWhitespace).map { .string($0.lowercased()) })
    }
}
