/// Why a photo source cannot be set up: missing bundled data, an unreadable photo folder or
/// index, a bad flag. The server refuses to start and prints the message.
package struct PhotoSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    var message: String

    init(_ message: String) { self.message = message }

    package var description: String { message }
}
