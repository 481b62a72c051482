/// A value bound to a statement parameter of a client SQLite file.
enum ClientSQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null
}
