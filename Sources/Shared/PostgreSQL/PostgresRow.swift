import CPostgreSQL
import SQL

/// One row of a result in binary format, read by column name.
///
/// Numbers are read in whichever integer width the column has (int2, int4, int8), so a
/// `count(*)` (int8) and an `integer` column read the same way. Reading a column the query did
/// not select, or with a type it does not have, is a programming error and stops the process.
public struct PostgresRow: Sendable {
    private let values: [String: [UInt8]?]
    private let types: [String: Oid]

    static func rows(of result: OpaquePointer) -> [PostgresRow] {
        let columns = Int(PQnfields(result))
        let names = (0..<columns).map { String(cString: PQfname(result, Int32($0))) }
        let types = Dictionary(uniqueKeysWithValues: (0..<columns).map { (names[$0], PQftype(result, Int32($0))) })
        return (0..<Int(PQntuples(result))).map { row in
            var values: [String: [UInt8]?] = [:]
            for column in 0..<columns {
                if PQgetisnull(result, Int32(row), Int32(column)) == 1 {
                    values[names[column]] = .some(nil)
                } else {
                    let length = Int(PQgetlength(result, Int32(row), Int32(column)))
                    let start = UnsafeRawPointer(PQgetvalue(result, Int32(row), Int32(column))!)
                    values[names[column]] = Array(UnsafeRawBufferPointer(start: start, count: length))
                }
            }
            return PostgresRow(values: values, types: types)
        }
    }

    private func raw(_ column: String) -> [UInt8]? {
        guard let value = values[column] else { preconditionFailure("no column \(column) in the row (\(values.keys.sorted()))") }
        return value
    }

    public func isNull(_ column: String) -> Bool { raw(column) == nil }

    public func int64(_ column: String) -> Int64 { optionalInt64(column) ?? 0 }

    public func optionalInt64(_ column: String) -> Int64? {
        guard let bytes = raw(column) else { return nil }
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch bytes.count {
        case 2: return Int64(Int16(truncatingIfNeeded: value))
        case 4: return Int64(Int32(truncatingIfNeeded: value))
        case 8: return Int64(bitPattern: value)
        default: preconditionFailure("column \(column) is not an integer (\(bytes.count) bytes, type \(types[column] ?? 0))")
        }
    }

    public func double(_ column: String) -> Double {
        guard let bytes = raw(column) else { return 0 }
        let bits = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return bytes.count == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits)
    }

    /// A boolean column, or an integer one read as a flag (not 0).
    public func bool(_ column: String) -> Bool {
        guard let bytes = raw(column) else { return false }
        return bytes.count == 1 ? bytes[0] != 0 : int64(column) != 0
    }
    public func string(_ column: String) -> String { optionalString(column) ?? "" }
    public func optionalString(_ column: String) -> String? { raw(column).map { String(decoding: $0, as: UTF8.self) } }
    public func bytes(_ column: String) -> [UInt8] { raw(column) ?? [] }
}

extension PostgresRow: SQLRow {}
