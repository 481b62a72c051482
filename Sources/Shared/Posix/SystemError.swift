#if canImport(Glibc)
    import Glibc
#endif

/// A failed system call: which call and its errno.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var errno: Int32
    /// Why, when the call says more than errno can (a name lookup's own message).
    public var detail: String?
    /// The path the call failed on, when a call on several paths needs to say which.
    public var path: String?

    public init(_ call: String, errno: Int32, detail: String? = nil, path: String? = nil) {
        self.call = call
        self.errno = errno
        self.detail = detail
        self.path = path
    }

    /// Why the call failed, in words.
    public var reason: String { detail ?? String(cString: strerror(errno)) }

    public var description: String { "\(call) failed: \(reason) (errno \(errno))" }
}

/// The outcome of a non-blocking call.
public enum IOResult<T: Sendable>: Sendable {
    case processed(T)
    case wouldBlock
}
