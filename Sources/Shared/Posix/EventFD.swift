import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking eventfd: a counter another thread bumps to wake a loop waiting in epoll.
///
/// Any thread may `signal`; the loop watches `fd` for readability and `drain`s it when it wakes.
/// Signals that pile up before the loop drains wake it once.
public final class EventFD: Sendable {
    /// The descriptor to watch for readability.
    public let fd: Int32

    /// Makes a counter at zero (non-blocking, close-on-exec).
    public init() throws(SystemError) {
        fd = try Syscall.checked("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit { Syscall.close(fd) }

    /// Wakes whoever watches `fd`; callable from any thread.
    public func signal() {
        var one: UInt64 = 1
        // Only a counter at its maximum (2^64 - 2) refuses, and then the loop is awake anyway.
        _ = try? Syscall.call("write(eventfd)") { Glibc.write(fd, &one, 8) }
    }

    /// Resets the counter, so `fd` reads as not ready until the next `signal`.
    public func drain() {
        var value: UInt64 = 0
        _ = try? Syscall.call("read(eventfd)") { Glibc.read(fd, &value, 8) }
    }
}
