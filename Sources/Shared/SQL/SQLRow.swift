/// One result row of either engine, read by column name (GRDB's `row["name"]`), so a query
/// that gains a column cannot shift another one.
///
/// NULL reads as 0, the empty string or no bytes; `isNull` tells them apart. Reading a column
/// the query did not select is a programming error and stops the process.
public protocol SQLRow {
    func int64(_ column: String) -> Int64
    func double(_ column: String) -> Double
    func string(_ column: String) -> String
    /// A flag: SQLite's 0 or 1, PostgreSQL's boolean.
    func bool(_ column: String) -> Bool
    func bytes(_ column: String) -> [UInt8]
    func isNull(_ column: String) -> Bool
}

extension SQLRow {
    /// Column `column` as an `Int`.
    public func int(_ column: String) -> Int { Int(int64(column)) }

    /// Column `column` as the case of `type` whose raw value it stores; nil when it names none.
    public func value<E: RawRepresentable>(_ column: String, as type: E.Type) -> E? where E.RawValue: FixedWidthInteger {
        E.RawValue(exactly: int64(column)).flatMap(E.init(rawValue:))
    }
}
