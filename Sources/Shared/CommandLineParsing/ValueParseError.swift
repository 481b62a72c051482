/// A value that does not have the shape its parser expects, such as `7x` for a duration.
public struct ValueParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in one line, naming the offending text.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
