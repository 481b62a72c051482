#if canImport(Glibc)
    import Glibc
#endif

/// A file a person named, read whole: its size bounded before a byte is kept, and a failure's
/// reason in the system's words ("No such file or directory", "Is a directory", "Permission
/// denied") for the message that names the file.
public enum WholeFile {
    /// The bytes of `path`, at most `maximumBytes` of them; throws naming why it cannot be read.
    public static func read(_ path: String, maximumBytes: Int) throws(SystemError) -> [UInt8] {
        let fd = try Syscall.checked("open") { open(path, O_RDONLY | O_CLOEXEC) }
        defer { Syscall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            guard case .processed(let count) = try Syscall.read(fd, into: &chunk) else { throw SystemError("read", errno: EAGAIN) }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumBytes else {
                throw SystemError("read", errno: EFBIG, detail: "it is larger than \(maximumBytes / (1 << 20)) MiB")
            }
            bytes += chunk[..<count]
        }
    }
}
