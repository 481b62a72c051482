#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: which call and its errno.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var errno: Int32

    public init(_ call: String, errno: Int32) { self.call = call; self.errno = errno }

    public var description: String { "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// The outcome of a non-blocking call.
public enum IOResult<T: Sendable>: Sendable {
    case processed(T)
    case wouldBlock
}
