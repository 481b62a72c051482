import Posix
import TLS

/// The bench's event loop: one thread, the Posix level-triggered epoll set, every load connection.
///
/// One thread keeps the generator to one of the machine's cores, so the server under test keeps
/// the other; ten thousand idle connections cost it nothing while they stay silent. Connections
/// keep their epoll interest through it (`InterestRegistry`).
final class LoadLoop: InterestRegistry {
    private let epoll: Epoll
    /// Connections by descriptor number (descriptors are small and dense), each with the
    /// generation it was registered under.
    private var connections: [(connection: LoadConnection, generation: UInt32)?] = []
    private var nextGeneration: UInt32 = 0
    /// Scratch space shared by every connection: the loop handles one at a time.
    let scratch = ScratchBuffers(networkBytes: 256 * 1024, plaintextBytes: 256 * 1024)
    private(set) var count = 0

    init() throws {
        epoll = try Epoll(maxEvents: 512)
    }

    func register(_ connection: LoadConnection) throws {
        let fd = Int(connection.fd)
        if fd >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: max(fd + 1 - connections.count, connections.count)))
        }
        nextGeneration &+= 1
        try epoll.add(connection.fd, generation: nextGeneration, read: true, write: false)
        connections[fd] = (connection, nextGeneration)
        count += 1
    }

    /// Watches `fd` for reading and/or writing from now on.
    func setInterest(_ fd: Int32, read: Bool, write: Bool) {
        let index = Int(fd)
        guard index >= 0, index < connections.count, let entry = connections[index] else { return }
        _ = try? epoll.modify(fd, generation: entry.generation, read: read, write: write)
    }

    func deregister(_ connection: LoadConnection) {
        guard entry(connection) != nil else { return }
        epoll.remove(connection.fd)
        connections[Int(connection.fd)] = nil
        count -= 1
    }

    private func entry(_ connection: LoadConnection) -> (connection: LoadConnection, generation: UInt32)? {
        let fd = Int(connection.fd)
        guard fd < connections.count, let entry = connections[fd], entry.connection === connection else { return nil }
        return entry
    }

    /// Waits up to `timeoutMilliseconds` and hands each ready connection its event.
    func poll(timeoutMilliseconds: Int32) {
        guard let ready = try? epoll.wait(timeoutMilliseconds: timeoutMilliseconds) else { return }
        for event in ready {
            let fd = Int(event.fd)
            // A connection closed earlier in this batch left nil behind, or a newer one on its
            // number under another generation: the event is stale either way.
            guard fd < connections.count, let entry = connections[fd], entry.generation == event.generation else { continue }
            entry.connection.handleEvent(readable: event.readable, writable: event.writable)
        }
    }
}
