#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Posix

/// The bench's event loop: one thread, one level-triggered epoll set, every load connection.
///
/// One thread keeps the generator to one of the machine's cores, so the server under test keeps
/// the other; ten thousand idle connections cost it nothing while they stay silent.
final class LoadLoop {
    private let epoll: Int32
    /// Connections by descriptor number (descriptors are small and dense).
    private var connections: [LoadConnection?] = []
    private var events = [epoll_event](repeating: epoll_event(), count: 512)
    /// Scratch space shared by every connection: the loop handles one at a time.
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    let plainBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    let outBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    private(set) var count = 0

    init() throws {
        epoll = try Syscall.checked("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
    }

    deinit {
        Syscall.close(epoll)
        readBuffer.deallocate()
        plainBuffer.deallocate()
        outBuffer.deallocate()
    }

    func register(_ connection: LoadConnection) throws {
        let fd = Int(connection.fd)
        if fd >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: max(fd + 1 - connections.count, connections.count)))
        }
        try control(EPOLL_CTL_ADD, connection.fd, write: false)
        connections[fd] = connection
        count += 1
    }

    func setWriteInterest(_ connection: LoadConnection, _ on: Bool) {
        _ = try? control(EPOLL_CTL_MOD, connection.fd, write: on)
    }

    func deregister(_ connection: LoadConnection) {
        let fd = Int(connection.fd)
        guard fd < connections.count, connections[fd] === connection else { return }
        var event = epoll_event()
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, connection.fd, &event)
        connections[fd] = nil
        count -= 1
    }

    private func control(_ op: Int32, _ fd: Int32, write: Bool) throws {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | (write ? EPOLLOUT.rawValue : 0)
        event.data.fd = fd
        _ = try Syscall.checked("epoll_ctl") { epoll_ctl(epoll, op, fd, &event) }
    }

    /// Waits up to `timeoutMilliseconds` and hands each ready connection its event.
    func poll(timeoutMilliseconds: Int32) {
        let ready = events.withUnsafeMutableBufferPointer { buffer in
            epoll_wait(epoll, buffer.baseAddress, Int32(buffer.count), timeoutMilliseconds)
        }
        guard ready > 0 else { return }
        for index in 0..<Int(ready) {
            let event = events[index]
            let fd = Int(event.data.fd)
            // A connection closed earlier in this batch left nil behind (or a newer one on its number,
            // which then just finds nothing to read).
            guard fd < connections.count, let connection = connections[fd] else { continue }
            let bits = event.events
            let readable = bits & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
            connection.handleEvent(readable: readable, writable: bits & EPOLLOUT.rawValue != 0)
        }
    }
}
