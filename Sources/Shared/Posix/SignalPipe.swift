import CLinux
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one way signals reach our code: an async-signal-safe handler in C writes the signal's
/// number as one byte to a pipe, and an ordinary thread reads it in a poll(2) loop, where Swift
/// code is safe (it is not inside a signal handler) and sees the signal with the rest of its
/// input. `wake()` writes a 0 byte, so another thread can end the same wait.
///
/// A signal is forwarded by one pipe at a time: `init` refuses a signal another open pipe has,
/// and lets the signals through to the calling thread (a parent may have started us with them
/// blocked). `close()` (or the pipe's end) puts back the disposition each signal had before.
/// Sendable for `wake()`, one write(2), safe from any thread; the rest is for one thread.
public final class SignalPipe: @unchecked Sendable {
    /// What was read from the pipe.
    public struct Delivery: Sendable, Equatable {
        /// The signals caught, oldest first.
        public var signals: [Int32] = []
        /// `wake()` was called.
        public var woken = false

        /// A delivery of `signals` (and a wake-up when `woken`).
        public init(signals: [Int32] = [], woken: Bool = false) {
            self.signals = signals
            self.woken = woken
        }
    }

    /// The end to poll for reading: readable once a signal or a wake-up is waiting.
    public let descriptor: Int32
    private let writeEnd: Int32
    private let forwarded: [Int32]
    /// Set by `close()`; `wake()` reads it under the same lock, so it never writes to a
    /// descriptor number the kernel may have handed to someone else since.
    private let closed = Mutex(false)
    /// Written by `wake()`: 0 is no signal's number.
    private static let wakeByte: UInt8 = 0

    /// Forwards `signals` to a new pipe from now until `close()`.
    public init(forwarding signals: [Int32]) throws(SystemError) {
        var fds: [Int32] = [0, 0]
        _ = try Syscall.checked("pipe2") { snapshare_pipe(&fds) }
        (descriptor, writeEnd) = (fds[0], fds[1])
        var installed: [Int32] = []
        for signal in signals {
            guard snapshare_forward_signal(signal, writeEnd) == 0 else {
                let error = SystemError("sigaction(\(signal))", errno: snapshare_errno())
                for done in installed { _ = snapshare_release_signal(done, writeEnd) }
                Syscall.close(descriptor)
                Syscall.close(writeEnd)
                throw error
            }
            installed.append(signal)
        }
        forwarded = installed
        Signals.unblock(installed)
    }

    deinit { close() }

    /// Puts back each signal's previous disposition and closes the pipe; safe to call twice.
    public func close() {
        closed.withLock { closed in
            guard !closed else { return }
            closed = true
            for signal in forwarded { _ = snapshare_release_signal(signal, writeEnd) }
            Syscall.close(descriptor)
            Syscall.close(writeEnd)
        }
    }

    /// Ends a wait on the pipe in progress, or the next one. Safe from any thread.
    public func wake() {
        closed.withLock { closed in
            // A full pipe (would block) already holds bytes enough to wake the reader.
            if !closed { _ = try? Syscall.write(writeEnd, [Self.wakeByte], from: 0) }
        }
    }

    /// Everything waiting in the pipe now, without blocking (the pipe is non-blocking).
    public func drain() -> Delivery {
        var delivery = Delivery()
        var buffer = [UInt8](repeating: 0, count: 256)
        while case .processed(let count)? = try? Syscall.read(descriptor, into: &buffer), count > 0 {
            for byte in buffer[0..<count] {
                if byte == Self.wakeByte { delivery.woken = true } else { delivery.signals.append(Int32(byte)) }
            }
        }
        return delivery
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for a signal or a wake-up; empty when
    /// the time passed first.
    public func wait(timeoutMilliseconds: Int32) throws(SystemError) -> Delivery {
        guard try Syscall.waitUntilReadable(descriptor, timeoutMilliseconds: timeoutMilliseconds) else { return Delivery() }
        return drain()
    }
}
