import Posix
import Testing

@Suite("eventfd wake-ups")
struct EventFDTests {
    /// A fresh counter, watched for readability by an epoll set of its own.
    static func watched() throws -> (EventFD, Epoll) {
        let wakeUp = try EventFD()
        let epoll = try Epoll()
        try epoll.add(wakeUp.fd, generation: 0, read: true, write: false)
        return (wakeUp, epoll)
    }

    /// True when `epoll` reports `fd` readable without waiting.
    static func isReadable(_ fd: Int32, in epoll: Epoll) throws -> Bool {
        try epoll.wait(timeoutMilliseconds: 0).contains { $0.fd == fd && $0.readable }
    }

    @Test("a signal makes the descriptor readable until it is drained")
    func aSignalWakesUntilDrained() throws {
        let (wakeUp, epoll) = try Self.watched()
        #expect(try !Self.isReadable(wakeUp.fd, in: epoll))

        wakeUp.signal()
        #expect(try Self.isReadable(wakeUp.fd, in: epoll))
        #expect(try Self.isReadable(wakeUp.fd, in: epoll), "level-triggered: it stays ready until drained")

        wakeUp.drain()
        #expect(try !Self.isReadable(wakeUp.fd, in: epoll))
    }

    @Test("signals that pile up wake once, and draining an empty counter is harmless")
    func signalsPileUpIntoOneWakeUp() throws {
        let (wakeUp, epoll) = try Self.watched()
        wakeUp.drain()
        for _ in 0..<100 { wakeUp.signal() }
        #expect(try Self.isReadable(wakeUp.fd, in: epoll))
        wakeUp.drain()
        #expect(try !Self.isReadable(wakeUp.fd, in: epoll))
    }

    @Test("another thread's signal wakes a waiting loop")
    func anotherThreadsSignalWakesTheLoop() throws {
        let (wakeUp, epoll) = try Self.watched()
        NamedThread.start("eventfd-test") { wakeUp.signal() }
        let ready = try epoll.wait(timeoutMilliseconds: 10_000)
        #expect(ready.contains { $0.fd == wakeUp.fd })
    }
}
