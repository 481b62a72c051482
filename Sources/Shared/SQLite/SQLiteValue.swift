/// One value bound to a statement parameter, in SQLite's storage classes.
public enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    /// An integer from a Swift `Int`.
    public static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    /// 1 or 0, as SQLite stores booleans.
    public static func bool(_ value: Bool) -> SQLiteValue { .integer(value ? 1 : 0) }
}

extension SQLiteValue {
    /// The value as `SQLTrace` writes it.
    var traced: String {
        switch self {
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): "'" + text + "'"
        case .blob(let bytes): "x'<\(bytes.count) bytes>'"
        case .null: "NULL"
        }
    }
}
