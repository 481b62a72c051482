import CPostgreSQL

/// A parameter as it travels to PostgreSQL: binary format, with the type it is sent as.
public enum PostgresValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case text(String)
    case bytes([UInt8])

    /// The type OID the parameter is declared as (0: let the server infer it, for NULL).
    var typeOID: Oid {
        switch self {
        case .null: 0
        case .integer: 20      // int8
        case .double: 701      // float8
        case .bool: 16         // bool
        case .text: 25         // text
        case .bytes: 17        // bytea
        }
    }

    /// The binary wire form (network byte order for numbers); nil for NULL.
    var binary: [UInt8]? {
        switch self {
        case .null: nil
        case .integer(let value): withUnsafeBytes(of: value.bigEndian) { Array($0) }
        case .double(let value): withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) }
        case .bool(let value): [value ? 1 : 0]
        case .text(let value): Array(value.utf8)
        case .bytes(let value): value
        }
    }
}

extension PostgresValue {
    /// The value as `SQLTrace` writes it.
    var traced: String {
        switch self {
        case .null: "NULL"
        case .integer(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        case .text(let value): "'" + value + "'"
        case .bytes(let value): "x'<\(value.count) bytes>'"
        }
    }
}

/// A failure PostgreSQL reported, with its SQLSTATE (https://www.postgresql.org/docs/15/errcodes-appendix.html).
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public let sqlState: String
    public let message: String

    public init(sqlState: String, message: String) {
        self.sqlState = sqlState
        self.message = message
    }

    /// A unique or primary-key constraint refused the row (23505).
    public var isUniquenessViolation: Bool { sqlState == "23505" }
    /// The connection is gone or could not be made (class 08), or the server is shutting down (57P).
    public var isConnectionFailure: Bool { sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") }
    /// PostgreSQL rolled the transaction back to end a deadlock (40P01) or a serialization
    /// failure (40001): running it again may well succeed.
    public var isTransactionConflict: Bool { sqlState == "40P01" || sqlState == "40001" }

    public var description: String { "\(message) (SQLSTATE \(sqlState))" }
}
