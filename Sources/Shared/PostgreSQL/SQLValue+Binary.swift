import CPostgreSQL
import SQL

/// A parameter as it travels to PostgreSQL: binary format, declared by its case.
extension SQLValue {
    /// The type OID the parameter is declared as (0: let the server infer it, for NULL).
    var typeOID: Oid {
        switch self {
        case .null: 0
        case .integer: 20 // int8
        case .real: 701 // float8
        case .bool: 16 // bool
        case .text: 25 // text
        case .blob: 17 // bytea
        }
    }

    /// The binary wire form (network byte order for numbers); nil for NULL.
    var binary: [UInt8]? {
        switch self {
        case .null: nil
        case .integer(let value): withUnsafeBytes(of: value.bigEndian) { Array($0) }
        case .real(let value): withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) }
        case .bool(let value): [value ? 1 : 0]
        case .text(let value): Array(value.utf8)
        case .blob(let value): value
        }
    }
}
