/// A Swift value that can stand beside a placeholder in `SQL` (`"… WHERE id = \(id)"`).
///
/// Integers, doubles, strings, bytes and booleans are bindable, optionals of them bind NULL for
/// nil, and an enum whose raw value is bindable becomes bindable by saying so
/// (`extension SnapState: SQLBindable {}`): it binds its raw value.
public protocol SQLBindable {
    /// What the placeholder is bound to.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}

extension Int64: SQLBindable {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int32: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension UInt8: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLBindable {
    public var sqlValue: SQLValue { .real(self) }
}

extension String: SQLBindable {
    public var sqlValue: SQLValue { .text(self) }
}

extension Bool: SQLBindable {
    public var sqlValue: SQLValue { .bool(self) }
}

extension Array: SQLBindable where Element == UInt8 {
    public var sqlValue: SQLValue { .blob(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { map(\.sqlValue) ?? .null }
}

extension SQLBindable where Self: RawRepresentable, RawValue: SQLBindable {
    public var sqlValue: SQLValue { rawValue.sqlValue }
}
