#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Posix

/// The service manager's end of `$NOTIFY_SOCKET`, as systemd holds it for a `Type=notify`
/// service: a datagram socket at a path, from which a test reads what the server reports.
public final class NotifySocket: @unchecked Sendable {
    public let path: String
    private let fd: Int32

    /// Binds a new datagram socket at `path` (which must not exist; at most 107 bytes).
    public init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ProcessError("socket(AF_UNIX, SOCK_DGRAM) failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw ProcessError("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { close(fd); throw ProcessError("bind(\(path)) failed: errno \(errno)") }
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// The next datagram's lines, or nil when none arrives within `timeout` seconds.
    public func next(timeout: Double = 15) -> [String]? {
        guard (try? Syscall.waitUntilReadable(fd, timeoutMilliseconds: Int32(timeout * 1000))) == true else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
