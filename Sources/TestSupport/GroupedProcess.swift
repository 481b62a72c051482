import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A program started in a process group of its own (Foundation's Process gives every child one),
/// its standard error kept in a file. Stopping it kills the whole group with SIGKILL, so nothing it
/// started stays behind, even after a failed test; SIGTERM would not do, as children started from
/// async code inherit a mask that blocks it (see `Subprocess.launch`). Stopped when released.
final class GroupedProcess: @unchecked Sendable {
    let process: Process
    /// Its standard output, line by line, when started `readingOutput`.
    let lines: OutputLines?
    private let output = Pipe()
    private let errorLog: String
    private let errorFile: AppendOnlyFile

    init(_ path: String, _ arguments: [String], environment: [String: String], errorLog: String, readingOutput: Bool = false) throws {
        self.errorLog = errorLog
        errorFile = try AppendOnlyFile(path: errorLog)
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = readingOutput ? output : FileHandle.nullDevice
        process.standardError = FileHandle(fileDescriptor: errorFile.sharedDescriptor, closeOnDealloc: false)
        lines = readingOutput ? OutputLines(output.fileHandleForReading) : nil
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// The end of what it wrote to standard error, for a failure message.
    var errorText: String {
        let text = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
        return String(text.suffix(2000))
    }

    /// Kills its process group and waits for it.
    func stop() {
        guard process.isRunning else { return }
        Signals.sendToGroup(SIGKILL, ledBy: process.processIdentifier)
        process.waitUntilExit()
    }

    deinit { stop() }
}
