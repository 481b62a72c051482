import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// The service manager's end of `$NOTIFY_SOCKET`, as systemd holds it for a `Type=notify`
/// service: a datagram socket at a path, from which a test reads what the server reports.
package final class NotifySocket: @unchecked Sendable {
    package let path: String
    private let fd: Int32

    /// Binds a new datagram socket at `path` (which must not exist; at most 107 bytes).
    package init(path: String) throws {
        self.path = path
        do { fd = try Socket.boundDatagram(at: path) } catch { throw ProcessError("bind(\(path)) failed: \(error.reason)") }
    }

    deinit {
        Syscall.close(fd)
        _ = try? FileSystem.remove(path)
    }

    /// The next datagram's lines, or nil when none arrives within `timeout` seconds.
    package func next(timeout: Double = 15) -> [String]? {
        guard (try? Syscall.waitUntilReadable(fd, timeoutMilliseconds: Int32(timeout * 1000))) == true else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        guard case .processed(let count)? = try? Syscall.read(fd, into: &buffer), count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
