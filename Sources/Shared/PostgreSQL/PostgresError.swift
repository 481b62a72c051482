import SQL

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

extension PostgresError: SQLFailure {
    public var failureKind: SQLFailureKind {
        switch sqlState {
        case "23505": .uniqueness
        case "23503": .foreignKey
        // Class 53 is insufficient resources (disk full, out of memory, too many connections) and
        // 25006 a read-only transaction (a standby after a failover): nothing wrong with the
        // statement, as SQLite's FULL and NOMEM are not.
        case _ where isConnectionFailure || sqlState.hasPrefix("53") || sqlState == "25006": .unavailable
        case "XX001", "XX002": .corrupt
        case _ where isTransactionConflict: .transient
        default: .other
        }
    }
}
