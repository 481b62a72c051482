#if canImport(Glibc)
    import Glibc
#endif

/// systemd's readiness protocol without libsystemd (`sd_notify(3)`): one datagram of
/// `NAME=value` lines to the `AF_UNIX` socket named in `$NOTIFY_SOCKET`, whose leading `@`
/// means the abstract namespace. A service started any other way has no such socket, and
/// every notification is then nothing.
public struct ServiceNotifier: Sendable {
    /// The socket's address bytes (for `sockaddr_un.sun_path`), nil without `$NOTIFY_SOCKET`.
    private let path: [UInt8]?

    public init(environment: [String: String]) {
        guard let name = environment["NOTIFY_SOCKET"], !name.isEmpty, name.hasPrefix("/") || name.hasPrefix("@") else {
            path = nil
            return
        }
        var bytes = Array(name.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        path = bytes.count < capacity ? bytes : nil
    }

    /// Whether a service manager is listening.
    public var isActive: Bool { path != nil }

    /// The service is up (after start, and after each reload).
    public func ready(status: String) { send(["READY=1", "STATUS=" + status]) }

    /// A reload starts; `READY=1` ends it. `MONOTONIC_USEC` lets systemd ≥ 253 match the two.
    public func reloading() {
        send(["RELOADING=1", "MONOTONIC_USEC=\(MonotonicClock.nanoseconds() / 1000)", "STATUS=reloading"])
    }

    /// The service is stopping (draining its connections).
    public func stopping(status: String) { send(["STOPPING=1", "STATUS=" + status]) }

    /// Sends the lines as one datagram; a manager that went away is not an error worth more than nothing.
    public func send(_ lines: [String]) {
        guard let path else { return }
        guard let fd = try? Socket.datagram() else { return }
        defer { Syscall.close(fd) }
        guard let (address, length) = Socket.unixAddress(path) else { return }
        let message = Array(lines.joined(separator: "\n").utf8)
        _ = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }
}
