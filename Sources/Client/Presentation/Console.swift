#if canImport(Glibc)
import Glibc
#endif

/// Where command output goes: results to standard output, messages to standard error.
public struct Console: Sendable {
    public init() {}

    /// Writes `text` and a newline to standard output.
    public func out(_ text: String) { write(1, text + "\n") }

    /// Writes `text` to standard output as is.
    public func raw(_ text: String) { write(1, text) }

    /// Writes `text` and a newline to standard error.
    public func err(_ text: String) { write(2, text + "\n") }

    /// Writes `text` to standard error as is: progress bars redraw their line with `\r`.
    func rawError(_ text: String) { write(2, text) }

    public var outputIsTerminal: Bool { isatty(1) == 1 }
    public var errorIsTerminal: Bool { isatty(2) == 1 }

    private func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue } else { return } }
            offset += n
        }
    }
}
