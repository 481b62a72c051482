import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A file that lines are added to the end of, each line whole (one `writeAll` under a lock, the
/// file opened O_APPEND), made owner-only (0600, less what the umask clears) when it is new: a
/// trace that grows while the program runs, or a program's log of its standard error, which no
/// staged write could be. A file written whole is a `StagedOutput`.
public final class AppendOnlyFile: Sendable {
    private let descriptor: Mutex<Int32>

    /// Opens `path` for adding lines, creating it when it does not exist.
    public init(path: String) throws(SystemError) {
        let fd = try Syscall.checked("open") { open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600) }
        descriptor = Mutex(fd)
    }

    deinit { descriptor.withLock { Syscall.close($0) } }

    /// The open descriptor, to hand to a program started from here as its output (it adds to the
    /// end, too); it stays this file's, closed when the file is released.
    public var sharedDescriptor: Int32 { descriptor.withLock { $0 } }

    /// Adds `text` at the end; lines of several threads never mix.
    public func append(_ text: String) throws(SystemError) {
        let bytes = Array(text.utf8)
        try descriptor.withLock { fd in
            Result { () throws(SystemError) in try Syscall.writeAll(fd, bytes) }
        }.get()
    }
}
