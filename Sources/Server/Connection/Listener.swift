import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// The listening socket. At the connection limit, with no connection that has not logged in
/// left to make room, it stops accepting (its epoll interest is dropped) so the kernel backlog
/// absorbs the burst, instead of accepting and closing.
final class Listener: EventHandler {
    let fd: Int32
    private unowned let server: ServerCore
    private(set) var accepting = true

    init(fd: Int32, server: ServerCore) {
        self.fd = fd
        self.server = server
    }

    func handleEvent(readable: Bool, writable: Bool) {
        guard readable else { return }
        for _ in 0..<64 {
            guard server.canAccept else {
                pause()
                return
            }
            do {
                switch try Socket.accept(fd) {
                case .wouldBlock: return
                case .processed(let client): server.accepted(client)
                }
            } catch {
                // EMFILE and friends: stop for now, retry on the next tick.
                server.logger.warning("accept: \(error)")
                pause()
                return
            }
        }
    }

    func pause() {
        guard accepting else { return }
        accepting = false
        server.loop.setInterest(fd, read: false, write: false)
    }

    func resume() {
        guard !accepting else { return }
        accepting = true
        server.loop.setInterest(fd, read: true, write: false)
    }
}
