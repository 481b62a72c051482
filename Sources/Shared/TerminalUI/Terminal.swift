import Posix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The controlling terminal: its size, raw mode, keys, and output (a full-screen program takes
/// it through `TerminalSession`).
///
/// Every byte for the screen goes through `write(_:)`, which loops over write(2) until all bytes
/// are out, retrying on EINTR and waiting on EAGAIN.
public struct Terminal: Sendable {
    /// A failed terminal system call.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        /// What was being done, e.g. "write" or "tcsetattr".
        public let operation: String
        /// The errno value.
        public let code: Int32

        /// A failure of `operation` with errno `code`.
        public init(operation: String, code: Int32) {
            self.operation = operation
            self.code = code
        }

        /// The operation and the system's text for the errno.
        public var description: String {
            "terminal \(operation) failed: \(String(cString: strerror(code)))"
        }
    }

    /// Terminal settings saved by `enableRawMode()`, to hand back to `restore(_:)`.
    public struct SavedMode: Sendable {
        fileprivate let attributes: termios
    }

    /// Where keys are read from (standard input by default).
    public let input: Int32
    /// Where the screen is written (standard output by default).
    public let output: Int32

    /// The terminal on `input` and `output` (standard input and output by default).
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    // MARK: Size

    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        TerminalDevice.isTerminal(fd)
    }

    /// The size the terminal reports for `fd`, or nil if it is not a terminal or reports 0x0.
    public static func size(of fd: Int32) -> (columns: Int, rows: Int)? {
        guard let size = TerminalDevice.size(of: fd), size.columns > 0, size.rows > 0 else { return nil }
        return size
    }

    /// The text area's size in pixels as the terminal reports it with its size, or nil where it
    /// leaves those fields empty (many do; then `TerminalFacts` asks with escape sequences).
    public static func pixelSize(of fd: Int32) -> PixelSize? {
        guard let size = TerminalDevice.pixelSize(of: fd), size.width > 0, size.height > 0 else { return nil }
        return PixelSize(width: size.width, height: size.height)
    }

    /// Whether this process is in the foreground of the terminal on `fd`: only then may it ask the
    /// terminal questions (a background process that reads the terminal is stopped).
    public static func isForeground(_ fd: Int32) -> Bool {
        TerminalDevice.isForeground(fd)
    }

    /// The terminal's size, else COLUMNS/LINES from the environment, else 80x24.
    public static func sizeOrDefault(
        of fd: Int32,
        environment: (String) -> String? = Terminal.environmentValue
    ) -> (columns: Int, rows: Int) {
        if let size = size(of: fd) { return size }
        let columns = environment("COLUMNS").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let rows = environment("LINES").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        return (columns ?? 80, rows ?? 24)
    }

    /// The process environment's value for `name`.
    public static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    // MARK: Output

    /// Writes all of `text`.
    public func write(_ text: String) throws(Failure) {
        try write(Array(text.utf8))
    }

    /// Writes all of `bytes` to the output, however many write(2) calls that takes.
    public func write(_ bytes: [UInt8]) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let result: IOResult<Int>
            do {
                result = try Syscall.write(output, bytes, from: offset, origin: .inherited)
            } catch {
                throw Failure(operation: "write", code: error.errno)
            }
            switch result {
            case .processed(0):
                throw Failure(operation: "write", code: EIO)
            case .processed(let written):
                offset += written
            case .wouldBlock:
                // Someone made the terminal non-blocking; wait until it drains.
                try waitUntilWritable(output)
            }
        }
    }

    // MARK: Keyboard

    /// Puts the input in raw mode (no line buffering, no echo, no signal keys) and returns the
    /// previous settings. Output processing is kept, so "\n" still moves to a new line.
    public func enableRawMode() throws(Failure) -> SavedMode {
        var attributes = try currentAttributes()
        let saved = SavedMode(attributes: attributes)
        attributes.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        attributes.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        attributes.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &attributes.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        try setAttributes(attributes, when: TCSAFLUSH)
        return saved
    }

    /// Puts back settings saved by `enableRawMode()`.
    public func restore(_ mode: SavedMode) throws(Failure) {
        try setAttributes(mode.attributes, when: TCSADRAIN)
    }

    /// Runs `body` (which reads a line, a password) with the input's echo off, and puts the
    /// settings back after it, whatever it did; throws when echo cannot be turned off, so
    /// nothing secret is read while it shows.
    public func withoutEcho<T>(_ body: () throws -> T) throws -> T {
        let saved = try currentAttributes()
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        try setAttributes(silent, when: TCSAFLUSH)
        defer { try? setAttributes(saved, when: TCSAFLUSH) }
        return try body()
    }

    /// Blocks until input arrives and returns it as events, decoded by `parser` (which keeps an
    /// unfinished sequence for the next call); a lone Escape is told from the start of a
    /// sequence by waiting 30 ms for more. Empty means the input was closed.
    public func nextEvents(using parser: inout InputParser) throws(Failure) -> [InputEvent] {
        while true {
            guard let first = try readByte() else { return parser.flush() }
            var events = parser.feed([first])
            while try isReadable(input, withinMilliseconds: parser.isWaiting ? 30 : 0), let next = try readByte() {
                events += parser.feed([next])
            }
            if parser.isWaiting { events += parser.flush() }
            if !events.isEmpty { return events }
        }
    }

    // MARK: System calls

    private func currentAttributes() throws(Failure) -> termios {
        do { return try TerminalDevice.attributes(of: input) } catch {
            throw Failure(operation: error.call, code: error.errno)
        }
    }

    private func setAttributes(_ attributes: termios, when action: Int32) throws(Failure) {
        do { try TerminalDevice.setAttributes(attributes, of: input, when: action) } catch {
            throw Failure(operation: error.call, code: error.errno)
        }
    }

    private func readByte() throws(Failure) -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let result: IOResult<Int>
            do {
                result = try withUnsafeMutableBytes(of: &byte) { buffer in
                    Result { () throws(SystemError) in try Syscall.read(input, into: buffer, origin: .inherited) }
                }.get()
            } catch {
                throw Failure(operation: "read", code: error.errno)
            }
            switch result {
            case .processed(0): return nil
            case .processed: return byte
            case .wouldBlock: _ = try isReadable(input, withinMilliseconds: -1)
            }
        }
    }

    private func isReadable(_ fd: Int32, withinMilliseconds timeout: Int32) throws(Failure) -> Bool {
        do { return try Syscall.waitUntilReadable(fd, timeoutMilliseconds: timeout) } catch {
            throw Failure(operation: "poll", code: error.errno)
        }
    }

    private func waitUntilWritable(_ fd: Int32) throws(Failure) {
        do { _ = try Syscall.waitUntilWritable(fd, timeoutMilliseconds: -1) } catch {
            throw Failure(operation: "poll", code: error.errno)
        }
    }
}
