/// Why a photo source cannot be set up: missing bundled data, an unreadable photo folder or
/// index, a bad flag. The server refuses to start and prints the message.
public struct PhotoSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
