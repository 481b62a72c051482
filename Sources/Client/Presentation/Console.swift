import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// Where command output goes: results to standard output, messages to standard error.
struct Console: Sendable {
    /// Writes `text` and a newline to standard output.
    func out(_ text: String) { write(1, text + "\n") }

    /// Writes `text` to standard output as is.
    func raw(_ text: String) { write(1, text) }

    /// Writes `text` and a newline to standard error.
    func err(_ text: String) { write(2, text + "\n") }

    /// Writes `text` to standard error as is: progress bars redraw their line with `\r`.
    func rawError(_ text: String) { write(2, text) }

    var outputIsTerminal: Bool { TerminalDevice.isTerminal(1) }
    var errorIsTerminal: Bool { TerminalDevice.isTerminal(2) }

    /// A stream that refuses the text (closed, its reader gone) is skipped: output is best effort.
    private func write(_ fd: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in try? Syscall.writeAll(fd, UnsafeRawBufferPointer(bytes), origin: .inherited) }
    }
}
