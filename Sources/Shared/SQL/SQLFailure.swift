/// What a failed statement means, whichever engine ran it: the one classification the store
/// turns into its own errors. Each engine's error type says which kind it is.
public enum SQLFailureKind: Sendable, Equatable {
    /// A unique or primary-key constraint refused the row.
    case uniqueness
    /// A foreign key found no parent row.
    case foreignKey
    /// The database cannot be reached or used just now (busy, I/O, disk full, connection lost).
    case unavailable
    /// The stored data is damaged.
    case corrupt
    /// The database broke this transaction off because of another one it conflicted with
    /// (a deadlock between instances): nothing of it was kept, and running it again may work.
    case transient
    /// Anything else: a bug in a statement, a misuse.
    case other
}

/// An engine's error, classified.
public protocol SQLFailure: Error, CustomStringConvertible {
    var failureKind: SQLFailureKind { get }
}
