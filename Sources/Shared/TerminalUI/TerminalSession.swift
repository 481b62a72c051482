import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A full-screen program's hold on the terminal: raw mode, the alternate screen, mouse reporting
/// and bracketed paste on `start()`, all of it undone by `stop()`, and one place to wait for
/// what happens next — input bytes, a signal, or a wake-up from another thread.
///
/// Signals arrive on a `SignalPipe` (the program's one signal path), so the wait is one poll(2)
/// over the input and that pipe, and the program never busy-loops. SIGWINCH, SIGTERM, SIGHUP,
/// SIGINT, SIGTSTP and SIGCONT are caught while the session exists; `respond(to:)` does the
/// session's part for each.
///
/// Sendable only for `wake()`, one write(2) to a pipe, safe from any thread; everything else is
/// for the thread that runs the screen.
public final class TerminalSession: @unchecked Sendable {
    /// What woke `wait(timeoutMilliseconds:decodingWith:)`.
    public struct Wakeup {
        /// Bytes read from the input (empty when none).
        public var input: [UInt8] = []
        /// Those bytes as events, with any sequence they finished.
        public var events: [InputEvent] = []
        /// The input was closed (the terminal went away).
        public var inputClosed = false
        /// Signals that arrived, oldest first.
        public var signals: [Int32] = []
        /// `wake()` was called from another thread.
        public var woken = false

        /// Nothing happened yet; or `events` and `signals` that arrived some other way.
        public init(events: [InputEvent] = [], signals: [Int32] = []) {
            self.events = events
            self.signals = signals
        }
    }

    /// What a caught signal leaves for the program to do once the session has done its part.
    public enum SignalOutcome: Equatable {
        /// Draw everything again: the size changed, or the terminal was taken back.
        case redraw
        /// Leave: SIGTERM, SIGHUP or SIGINT.
        case end
    }

    public let terminal: Terminal
    private var saved: Terminal.SavedMode?
    private let signals: SignalPipe
    private static let caught: [Int32] = [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGTSTP, SIGCONT]
    /// How long an unfinished escape sequence waits for the rest before it counts as typed keys
    /// (a lone Escape, say).
    private static let sequencePatienceMilliseconds: Int32 = 30

    /// Mouse buttons, drags and the wheel in SGR form (1000, 1002, 1006) and bracketed paste (2004).
    static let startSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h\u{1B}[2J\u{1B}[H"
    static let stopSequence = "\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// A session on `terminal`; signals are caught from now until `close()`.
    public init(terminal: Terminal = Terminal()) throws(Terminal.Failure) {
        self.terminal = terminal
        do { signals = try SignalPipe(forwarding: Self.caught) } catch {
            throw Terminal.Failure(operation: error.call, code: error.errno)
        }
    }

    deinit { close() }

    private var closed = false

    /// Restores the terminal and the signals' previous dispositions, and closes the pipe.
    public func close() {
        guard !closed else { return }
        closed = true
        stop()
        signals.close()
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
        // SIGSTOP cannot be caught, so the SIGTSTP handler stays in place for the next time.
        Signals.stopThisProcess()
        try start()
    }

    /// Does the session's part for a caught `signal`: SIGTSTP suspends (returning after `fg`),
    /// SIGCONT from outside (stopped by someone else) takes the terminal again, SIGWINCH needs
    /// nothing more; all three then want a redraw. Any other signal caught means leave.
    public func respond(to signal: Int32) throws(Terminal.Failure) -> SignalOutcome {
        switch signal {
        case SIGWINCH: return .redraw
        case SIGTSTP:
            try suspend()
            return .redraw
        case SIGCONT:
            try start()
            return .redraw
        default: return .end
        }
    }

    /// Wakes a `wait` in progress (or the next one). Safe from any thread.
    public func wake() {
        signals.wake()
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for input, a signal or a wake-up, and
    /// decodes the input with `parser`. While `parser` holds an unfinished sequence the wait is
    /// 30 ms at most, and a sequence still unfinished then counts as the keys typed.
    ///
    /// The patience counts from when the unfinished sequence arrived, not from each wait: a
    /// program woken often (the camera's preview, 30 times a second) does not cut a sequence
    /// split across two reads into an Escape and stray keys.
    public func wait(timeoutMilliseconds: Int32, decodingWith parser: inout InputParser) throws(Terminal.Failure) -> Wakeup {
        var timeout = timeoutMilliseconds
        if parser.isWaiting {
            let now = MonotonicClock.milliseconds()
            if unfinishedSince == nil { unfinishedSince = now }
            let left = Int32(clamping: max(0, Int64(Self.sequencePatienceMilliseconds) - (now - unfinishedSince!)))
            if timeout < 0 || timeout > left { timeout = left }
        } else {
            unfinishedSince = nil
        }
        var wakeup = try wait(timeoutMilliseconds: timeout)
        wakeup.events = parser.feed(wakeup.input)
        if !wakeup.input.isEmpty { unfinishedSince = nil }
        if parser.isWaiting, wakeup.input.isEmpty, let since = unfinishedSince,
            MonotonicClock.milliseconds() - since >= Int64(Self.sequencePatienceMilliseconds)
        {
            wakeup.events += parser.flush()
            unfinishedSince = nil
        }
        return wakeup
    }

    /// When the unfinished sequence `wait` holds began to wait for its rest.
    private var unfinishedSince: Int64?

    private func wait(timeoutMilliseconds: Int32) throws(Terminal.Failure) -> Wakeup {
        var fds = [
            pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
        ]
        var wakeup = Wakeup()
        let ready: Int
        do { ready = try Syscall.poll(&fds, timeoutMilliseconds: timeoutMilliseconds) } catch {
            throw Terminal.Failure(operation: "poll", code: error.errno)
        }
        guard ready > 0 else { return wakeup }
        if fds[1].revents != 0 {
            let delivery = signals.drain()
            wakeup.signals = delivery.signals
            wakeup.woken = delivery.woken
        }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let result: IOResult<Int>
            do { result = try Syscall.read(terminal.input, into: &buffer, origin: .inherited) } catch {
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
}
