/// Why the client's state directory could not be read or written.
package enum ClientStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A state file exists but cannot be understood; the message names the file.
    case corrupt(file: String, reason: String)
    /// A system call failed on `path`.
    case system(operation: String, path: String, errno: Int32)
    /// A certificate fingerprint that is not 64 hex digits (SHA-256), colons allowed.
    case invalidFingerprint(String)
    /// A server name that cannot be stored (empty, or containing spaces or control characters).
    case invalidServer(String)
    /// A session whose token or username cannot be stored in the session file format.
    case invalidSession(String)

    package var description: String {
        switch self {
        case .corrupt(let file, let reason):
            return "corrupt state file \(file): \(reason) (fix or delete it)"
        case .system(let operation, let path, let code):
            return "cannot \(operation) \(path): \(StateFile.errorText(code))"
        case .invalidFingerprint(let text):
            return "invalid certificate fingerprint '\(text)': expected 64 hex digits of SHA-256"
        case .invalidServer(let text):
            return "invalid server name '\(text)'"
        case .invalidSession(let why):
            return "invalid session: \(why)"
        }
    }
}
