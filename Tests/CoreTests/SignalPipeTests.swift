import Posix
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SIGUSR1 and SIGUSR2 only: nothing else in the test process uses them.
@Suite("Signal pipe", .serialized)
struct SignalPipeTests {
    @Test("a signal caught arrives as its number on the pipe, and a wake-up as a wake-up")
    func signalsArriveOnThePipe() throws {
        let pipe = try SignalPipe(forwarding: [SIGUSR1, SIGUSR2])
        defer { pipe.close() }
        #expect(try pipe.wait(timeoutMilliseconds: 0) == SignalPipe.Delivery(), "nothing yet")
        // raise(3) runs the handler on this thread, which the pipe let the signals through to.
        raise(SIGUSR2)
        raise(SIGUSR1)
        #expect(try pipe.wait(timeoutMilliseconds: 5000) == SignalPipe.Delivery(signals: [SIGUSR2, SIGUSR1]))
        pipe.wake()
        #expect(try pipe.wait(timeoutMilliseconds: 5000) == SignalPipe.Delivery(woken: true))
    }

    @Test("a signal another pipe forwards is refused, and can be taken again once that pipe is closed")
    func oneSignalOnePipe() throws {
        let first = try SignalPipe(forwarding: [SIGUSR1])
        #expect(throws: SystemError.self) { try SignalPipe(forwarding: [SIGUSR2, SIGUSR1]) }
        // The refused pipe let go of SIGUSR2 too.
        let second = try SignalPipe(forwarding: [SIGUSR2])
        second.close()
        first.close()
        let again = try SignalPipe(forwarding: [SIGUSR1])
        raise(SIGUSR1)
        #expect(try again.wait(timeoutMilliseconds: 5000).signals == [SIGUSR1])
        again.close()
    }

    @Test("waiting on a pipe with nothing on it returns once the time has passed")
    func aWaitTimesOut() throws {
        let pipe = try SignalPipe(forwarding: [])
        defer { pipe.close() }
        #expect(try pipe.wait(timeoutMilliseconds: 20) == SignalPipe.Delivery())
        #expect(try !Syscall.waitUntilReadable(pipe.descriptor, timeoutMilliseconds: 0))
    }
}
