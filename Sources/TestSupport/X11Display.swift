import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A private X server (Xvfb, 24-bit colour, no TCP) on a display number it chose itself, so tests
/// never meet a developer's desktop or each other. Killed when released.
final class X11Display: @unchecked Sendable {
    /// The display's name for `DISPLAY`, such as `:3`.
    let name: String
    private let number: Int
    private let server: GroupedProcess

    /// Starts Xvfb with one `width` x `height` screen; its log goes into `directory`.
    init(width: Int = 1280, height: Int = 800, in directory: TemporaryDirectory) throws {
        guard let xvfb = X11Tools.xvfb else { throw ProcessError("Xvfb is not installed") }
        // -displayfd: the server picks a free display number and writes it to standard output once
        // it accepts connections, which is the moment a client may start.
        server = try GroupedProcess(
            xvfb, ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"],
            environment: ProcessInfo.processInfo.environment, errorLog: directory.file("xvfb.log"),
            readingOutput: true)
        guard let line = server.lines?.next(timeout: 10), let number = Int(line.trimmingCharacters(in: .whitespaces)) else {
            server.stop()
            throw ProcessError("Xvfb did not start: \(server.errorText)")
        }
        self.number = number
        name = ":\(number)"
    }

    deinit {
        // Killed, the server leaves its socket file behind (a SIGTERM, which it would clean up
        // after, may be blocked; see GroupedProcess). -displayfd writes no lock file, and clients
        // on Linux reach a server through its abstract socket first, so the file is only litter.
        server.stop()
        _ = try? FileSystem.remove("/tmp/.X11-unix/X\(number)")
    }
}
