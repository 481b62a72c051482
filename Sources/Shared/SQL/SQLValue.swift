/// One value bound to a placeholder or read back, in the storage classes both engines share.
///
/// Each engine sends it in its own terms: SQLite stores a `bool` as the integer 0 or 1, and
/// PostgreSQL declares each parameter by its case (int8, float8, text, bytea, bool).
public enum SQLValue: Sendable, Equatable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case bool(Bool)

    /// An integer from a Swift `Int`.
    public static func int(_ value: Int) -> SQLValue { .integer(Int64(value)) }
}
