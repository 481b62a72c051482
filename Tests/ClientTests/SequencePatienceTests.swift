import Foundation
import Posix
import TerminalUI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An escape sequence split across two reads is waited for 30 ms from when its start arrived,
/// however often the session is woken meanwhile (the camera's preview wakes it at each frame):
/// the two halves make one key, not an Escape and stray characters; a lone Escape still comes
/// through once the 30 ms have passed.
@Suite struct SequencePatienceTests {
    @Test("wake-ups every 2 ms do not cut a split arrow key into Escape, and a lone Escape still arrives after its patience")
    func wakeUpsDoNotCutASequence() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let devnull = open("/dev/null", O_WRONLY)
        defer { close(devnull) }
        let session = try TerminalSession(terminal: Terminal(input: fds[0], output: devnull))
        defer { session.close() }
        let writer = fds[1]

        /// Events from waits until `until` holds or 2 s pass, while another thread wakes the
        /// session every 2 ms and, after `delay` ms, writes `rest`.
        func events(first: String, rest: String?, delay: Int, until: ([InputEvent]) -> Bool) -> [InputEvent] {
            var parser = InputParser()
            _ = first.utf8CString.withUnsafeBufferPointer { write(writer, $0.baseAddress, first.utf8.count) }
            let waking = UncheckedBox(true)
            let stopped = DispatchSemaphore(value: 0)
            let waker = Thread {
                defer { stopped.signal() }
                let started = MonotonicClock.milliseconds()
                var sent = rest == nil
                while waking.value {
                    session.wake()
                    if !sent, MonotonicClock.milliseconds() - started >= Int64(delay), let rest {
                        _ = rest.utf8CString.withUnsafeBufferPointer { write(writer, $0.baseAddress, rest.utf8.count) }
                        sent = true
                    }
                    // The wake-ups every 2 ms are what the test is about (a camera's frames).
                    usleep(2_000)
                }
            }
            waker.start()
            defer {
                waking.value = false
                stopped.wait()
            }
            var seen: [InputEvent] = []
            let deadline = MonotonicClock.milliseconds() + 2_000
            while !until(seen), MonotonicClock.milliseconds() < deadline {
                if let wakeup = try? session.wait(timeoutMilliseconds: 100, decodingWith: &parser) { seen += wakeup.events }
            }
            return seen
        }

        let arrow = events(first: "\u{1B}[", rest: "A", delay: 15) { !$0.isEmpty }
        #expect(arrow == [.key(.up)], "\(arrow)")
        let escape = events(first: "\u{1B}", rest: nil, delay: 0) { !$0.isEmpty }
        #expect(escape == [.key(.escape)], "\(escape)")
    }
}

private final class UncheckedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
