import Posix
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where the server's log lines go by default: file descriptor 2, written with write(2).
///
/// Whoever reads the log may go away (`snapshare-server 2>&1 | tee server.log`, then Ctrl-C on
/// tee; `| head -1`). Foundation's FileHandle.write traps on EPIPE, which killed the server at
/// its next log line; here a line that cannot be written is dropped and counted, and the
/// server goes on serving (SIGPIPE is ignored, so EPIPE arrives as an error).
final class StandardErrorLog: Sendable {
    /// The process's standard error.
    static let shared = StandardErrorLog(fileDescriptor: 2)

    private let fileDescriptor: Int32
    private let dropped = Atomic<Int64>(0)

    /// A log writing to `fileDescriptor`, which the caller keeps open (tests pass a pipe).
    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Lines that could not be written (the reader went away, the disk is full, fd 2 is closed).
    var droppedLines: Int64 { dropped.load(ordering: .relaxed) }

    /// Writes `line` and a newline, or counts it as dropped; never traps, whatever the error.
    func write(_ line: String) {
        var text = line + "\n"
        let written = text.withUTF8 { bytes in
            (try? Syscall.writeAll(fileDescriptor, UnsafeRawBufferPointer(bytes), origin: .inherited)) != nil
        }
        if !written { dropped.add(1, ordering: .relaxed) }
    }
}
