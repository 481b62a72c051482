import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// The system calls on a terminal's descriptor: whether it is one, its size, whose foreground it
/// is, and its settings (termios), read and set with EINTR retried. What the settings mean (raw
/// mode, echo) is TerminalUI's business.
public enum TerminalDevice {
    /// Whether `fd` is a terminal.
    public static func isTerminal(_ fd: Int32) -> Bool {
        isatty(fd) == 1
    }

    /// The size the terminal on `fd` reports, in character cells; nil when it is not a terminal.
    public static func size(of fd: Int32) -> (columns: Int, rows: Int)? {
        var columns: UInt16 = 0
        var rows: UInt16 = 0
        guard snapshare_terminal_size(fd, &columns, &rows) == 0 else { return nil }
        return (Int(columns), Int(rows))
    }

    /// The text area's size in pixels as the terminal on `fd` reports it with its size (0 where it
    /// leaves those fields empty); nil when it is not a terminal.
    public static func pixelSize(of fd: Int32) -> (width: Int, height: Int)? {
        var width: UInt16 = 0
        var height: UInt16 = 0
        guard snapshare_terminal_pixels(fd, &width, &height) == 0 else { return nil }
        return (Int(width), Int(height))
    }

    /// Whether this process is in the foreground of the terminal on `fd`.
    public static func isForeground(_ fd: Int32) -> Bool {
        tcgetpgrp(fd) == getpgrp()
    }

    /// The terminal's settings (tcgetattr(3)).
    public static func attributes(of fd: Int32) throws(SystemError) -> termios {
        var attributes = termios()
        _ = try Syscall.checked("tcgetattr", origin: .inherited) { tcgetattr(fd, &attributes) }
        return attributes
    }

    /// Sets the terminal's settings (tcsetattr(3)) `when` (TCSANOW, TCSADRAIN, TCSAFLUSH).
    public static func setAttributes(_ attributes: termios, of fd: Int32, when: Int32) throws(SystemError) {
        var attributes = attributes
        _ = try Syscall.checked("tcsetattr", origin: .inherited) { tcsetattr(fd, when, &attributes) }
    }
}
