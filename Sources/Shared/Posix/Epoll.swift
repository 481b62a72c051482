import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// A level-triggered epoll instance. Each registration carries the descriptor and a 32-bit
/// generation in `epoll_data.u64`, so an event for a descriptor number that was closed and
/// reused in the same wait batch is recognised as stale (swift-nio's registration ids).
public final class Epoll {
    /// One ready descriptor.
    public struct Event: Sendable {
        public var fd: Int32
        public var generation: UInt32
        /// Also set on hang-up and error: the next read(2) reports them.
        public var readable: Bool
        public var writable: Bool
    }

    private let fd: Int32
    private var buffer: [epoll_event]

    public init(maxEvents: Int = 256) throws(SystemError) {
        fd = try Syscall.checked("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        buffer = Array(repeating: epoll_event(), count: maxEvents)
    }

    deinit { Syscall.close(fd) }

    private static func mask(read: Bool, write: Bool) -> UInt32 {
        var events: UInt32 = 0
        if read { events |= EPOLLIN.rawValue | EPOLLRDHUP.rawValue }
        if write { events |= EPOLLOUT.rawValue }
        return events
    }

    private func control(_ op: Int32, _ target: Int32, generation: UInt32, read: Bool, write: Bool) throws(SystemError) {
        var event = epoll_event()
        event.events = Self.mask(read: read, write: write)
        event.data.u64 = UInt64(generation) << 32 | UInt64(UInt32(bitPattern: target))
        _ = try Syscall.checked("epoll_ctl") { epoll_ctl(fd, op, target, &event) }
    }

    public func add(_ target: Int32, generation: UInt32, read: Bool, write: Bool) throws(SystemError) {
        try control(EPOLL_CTL_ADD, target, generation: generation, read: read, write: write)
    }

    public func modify(_ target: Int32, generation: UInt32, read: Bool, write: Bool) throws(SystemError) {
        try control(EPOLL_CTL_MOD, target, generation: generation, read: read, write: write)
    }

    public func remove(_ target: Int32) {
        var event = epoll_event()
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, target, &event)
    }

    /// Waits up to `timeoutMilliseconds` (-1 forever) and returns the ready descriptors.
    public func wait(timeoutMilliseconds: Int32) throws(SystemError) -> [Event] {
        let count = try buffer.withUnsafeMutableBufferPointer { (events) throws(SystemError) -> Int32 in
            switch try Syscall.call(
                "epoll_wait", blocking: true,
                {
                    epoll_wait(fd, events.baseAddress, Int32(events.count), timeoutMilliseconds)
                })
            {
            case .processed(let n): return n
            case .wouldBlock: return 0
            }
        }
        var ready: [Event] = []
        ready.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let event = buffer[i]
            let data = event.data.u64
            let bits = event.events
            ready.append(
                Event(
                    fd: Int32(bitPattern: UInt32(truncatingIfNeeded: data)),
                    generation: UInt32(truncatingIfNeeded: data >> 32),
                    readable: bits & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0,
                    writable: bits & EPOLLOUT.rawValue != 0))
        }
        return ready
    }
}
