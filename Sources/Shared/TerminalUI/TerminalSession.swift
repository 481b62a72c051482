#if canImport(Glibc)
import Glibc
#endif
import CLinux
import Posix

/// A full-screen program's hold on the terminal: raw mode, the alternate screen, mouse reporting
/// and bracketed paste on `start()`, all of it undone by `stop()`, and one place to wait for
/// what happens next — input bytes, a signal, or a wake-up from another thread.
///
/// Signals arrive as bytes on a pipe (an async-signal-safe handler in CLinux writes the number),
/// so the wait is one poll(2) over the input and that pipe, and the program never busy-loops.
/// SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGTSTP and SIGCONT are caught while the session exists.
///
/// Sendable only for `wake()`, one write(2) to a pipe, safe from any thread; everything else is
/// for the thread that runs the screen.
public final class TerminalSession: @unchecked Sendable {
    /// What woke `wait(timeoutMilliseconds:)`.
    public struct Wakeup {
        /// Bytes read from the input (empty when none).
        public var input: [UInt8] = []
        /// The input was closed (the terminal went away).
        public var inputClosed = false
        /// Signals that arrived, oldest first.
        public var signals: [Int32] = []
        /// `wake()` was called from another thread.
        public var woken = false
    }

    public let terminal: Terminal
    private var saved: Terminal.SavedMode?
    private let pipeRead: Int32
    private let pipeWrite: Int32
    private static let caught: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT]
    /// Byte written by `wake()`: 0 is no signal number.
    private static let wakeByte: UInt8 = 0

    /// Mouse buttons, drags and the wheel in SGR form (1000, 1002, 1006) and bracketed paste (2004).
    static let startSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[2J\u{1B}[H"
    static let stopSequence = "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// A session on `terminal`; signals are caught from now until `close()`.
    public init(terminal: Terminal = Terminal()) throws(Terminal.Failure) {
        self.terminal = terminal
        var fds: [Int32] = [0, 0]
        guard snapshare_pipe(&fds) == 0 else { throw Terminal.Failure(operation: "pipe", code: snapshare_errno()) }
        (pipeRead, pipeWrite) = (fds[0], fds[1])
        for signo in Self.caught { _ = snapshare_forward_signal(signo, pipeWrite) }
    }

    deinit { close() }

    private var closed = false

    /// Restores the terminal and the signals' default actions, and closes the pipe.
    public func close() {
        guard !closed else { return }
        closed = true
        stop()
        for signo in Self.caught { _ = snapshare_default_signal(signo) }
        Glibc.close(pipeRead)
        Glibc.close(pipeWrite)
    }

    /// Raw mode, the alternate screen, no cursor, mouse and bracketed paste.
    public func start() throws(Terminal.Failure) {
        if saved == nil { saved = try terminal.enableRawMode() }
        try terminal.write(Self.startSequence)
    }

    /// Everything `start()` changed, put back; safe to call twice and from error paths.
    public func stop() {
        guard let mode = saved else { return }
        saved = nil
        try? terminal.write(Self.stopSequence)
        try? terminal.restore(mode)
    }

    /// Hands the terminal back to the shell and stops the process (Ctrl-Z); returns after `fg`
    /// with the terminal taken again. The caller redraws everything.
    public func suspend() throws(Terminal.Failure) {
        stop()
        // SIGSTOP cannot be caught, so the handler above stays in place for the next time.
        kill(getpid(), SIGSTOP)
        try start()
    }

    /// Wakes a `wait` in progress (or the next one). Safe from any thread.
    public func wake() {
        var byte = Self.wakeByte
        _ = Glibc.write(pipeWrite, &byte, 1)
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for input, a signal or a wake-up.
    public func wait(timeoutMilliseconds: Int32) throws(Terminal.Failure) -> Wakeup {
        var fds = [pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)]
        var wakeup = Wakeup()
        let ready = poll(&fds, 2, timeoutMilliseconds)
        if ready < 0 {
            let code = snapshare_errno()
            guard code == EINTR else { throw Terminal.Failure(operation: "poll", code: code) }
        }
        guard ready > 0 else { return wakeup }
        if fds[1].revents != 0 {
            for byte in drain(pipeRead, origin: .ours) {
                if byte == Self.wakeByte { wakeup.woken = true } else { wakeup.signals.append(Int32(byte)) }
            }
        }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let result: IOResult<Int>
            do {
                result = try buffer.withUnsafeMutableBytes { buffer in
                    Result { () throws(SystemError) in try Syscall.read(terminal.input, into: buffer, origin: .inherited) }
                }.get()
            } catch {
                throw Terminal.Failure(operation: "read", code: error.errno)
            }
            switch result {
            case .processed(0): wakeup.inputClosed = true
            case .processed(let count): wakeup.input = Array(buffer[0..<count])
            case .wouldBlock: break
            }
        }
        return wakeup
    }

    private func drain(_ fd: Int32, origin: DescriptorOrigin) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let result = buffer.withUnsafeMutableBytes { buffer in
                try? Syscall.read(fd, into: buffer, origin: origin)
            }
            guard case .processed(let count)? = result, count > 0 else { return bytes }
            bytes += buffer[0..<count]
        }
    }
}
