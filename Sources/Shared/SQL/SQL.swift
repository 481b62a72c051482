/// A statement written once for both engines, with each value beside its placeholder.
///
/// Built by string interpolation, as GRDB's `SQLInterpolation` and postgres-nio's
/// `PostgresQuery` are: `"SELECT name FROM users WHERE id = \(id)"` holds the text and the
/// bound value together, so a value can never end up spliced into the text or bound to the
/// wrong placeholder. Trusted fragments of text go in with `\(raw:)`, statements within
/// statements with `\(sql)`, lists with `\(list:)`. A connection renders it in its own
/// placeholder style (`?1` for SQLite, `$1` for PostgreSQL), numbering the values in order;
/// the same statement always renders the same text, which is what statement caches key on.
public struct SQL: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    enum Piece: Sendable {
        case text(String)
        case value(SQLValue)
    }

    private(set) var pieces: [Piece]

    /// Text with no values, trusted (a table or column name the code itself holds).
    public init(raw text: String) {
        pieces = text.isEmpty ? [] : [.text(text)]
    }

    public init(stringLiteral text: String) {
        self.init(raw: text)
    }

    public init(stringInterpolation: Interpolation) {
        pieces = stringInterpolation.pieces
    }

    /// The pieces of `parts` with `separator` between them (`a AND b AND c`).
    public init(joining parts: [SQL], separator: String) {
        pieces = []
        for (index, part) in parts.enumerated() {
            if index > 0 { pieces.append(.text(separator)) }
            pieces += part.pieces
        }
    }

    /// Builds a statement piece by piece as it is interpolated.
    public struct Interpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(interpolationCount * 2 + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { pieces.append(.text(literal)) }
        }

        /// A value, bound to a placeholder of its own.
        public mutating func appendInterpolation(_ value: some SQLBindable) {
            pieces.append(.value(value.sqlValue))
        }

        /// An optional value: NULL when it is nil.
        public mutating func appendInterpolation<Value: SQLBindable>(_ value: Value?) {
            pieces.append(.value(value.sqlValue))
        }

        /// A statement within this one (a shared column list, an engine's fragment).
        public mutating func appendInterpolation(_ sql: SQL) {
            pieces += sql.pieces
        }

        /// Trusted text, spliced in as it is: only for names and fragments the code holds.
        public mutating func appendInterpolation(raw text: String) {
            appendLiteral(text)
        }

        /// Values separated by commas, each with a placeholder of its own (`IN (\(list: ids))`).
        public mutating func appendInterpolation(list values: [some SQLBindable]) {
            for (index, value) in values.enumerated() {
                if index > 0 { pieces.append(.text(", ")) }
                pieces.append(.value(value.sqlValue))
            }
        }
    }

    /// `lhs` followed by `rhs`.
    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var joined = lhs
        joined.pieces += rhs.pieces
        return joined
    }

    /// The text with placeholder `i` (from 1) written by `placeholder(i)`, and the values in order.
    public func rendered(placeholder: (Int) -> String) -> (text: String, values: [SQLValue]) {
        var text = ""
        var values: [SQLValue] = []
        for piece in pieces {
            switch piece {
            case .text(let fragment):
                text += fragment
            case .value(let value):
                values.append(value)
                text += placeholder(values.count)
            }
        }
        return (text, values)
    }

    /// The text with `?` for each placeholder, for messages and tests.
    public var description: String { rendered { _ in "?" }.text }
}
