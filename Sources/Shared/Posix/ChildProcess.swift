import CLinux

#if canImport(Glibc)
    import Glibc
#endif

/// A program we started, with its standard output and standard error on two pipes of ours (both
/// non-blocking, for a poll loop) and its standard input from /dev/null.
///
/// It dies with us: the child is sent SIGKILL by the kernel when the thread that started it
/// ends (so start it from the main thread or another that lasts as long as the program), and
/// `terminate()` (also run by `deinit`) ends it politely first: SIGTERM, a short wait, SIGKILL,
/// and always reaps it, so no zombie is left.
public final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    public let pid: pid_t
    /// The read end of the child's standard output.
    public let output: Int32
    /// The read end of the child's standard error.
    public let errorOutput: Int32
    private var ending: Ending?
    private var outputClosed = false, errorOutputClosed = false

    /// The full path of `name` found on `searchPath` (a PATH value), or nil when no directory in
    /// it holds an executable of that name. A name with a slash is taken as it is.
    public static func find(_ name: String, searchPath: String?) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        for directory in (searchPath ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = "\(directory)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Runs `command` with /bin/sh and waits for it (system(3)); its exit status as a wait status
    /// (0: success). For programs that leave daemons behind (a database server, tmux), which a
    /// `ChildProcess`'s pipes would keep waiting.
    public static func shell(_ command: String) -> Int32 {
        system(command)
    }

    /// Starts the program at `path` (a full path) with `arguments` (not counting its name) and
    /// `environment` ("NAME=value" entries). Throws when the pipes cannot be made or the program
    /// cannot be started (ENOENT, EACCES, ENOEXEC from exec itself).
    public init(path: String, arguments: [String], environment: [String]) throws(SystemError) {
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        _ = try Syscall.checked("pipe2") { snapshare_pipe(&outPipe) }
        do { _ = try Syscall.checked("pipe2") { snapshare_pipe(&errPipe) } } catch {
            Syscall.close(outPipe[0])
            Syscall.close(outPipe[1])
            throw error
        }
        var started: Int32 = 0
        // The errno is read inside, before freeing the strings can change it.
        let failure = Self.withCStrings([path] + arguments) { argv in
            Self.withCStrings(environment) { envp in
                snapshare_spawn(path, argv, envp, outPipe[1], errPipe[1], &started) == 0 ? 0 : snapshare_errno()
            }
        }
        Syscall.close(outPipe[1])
        Syscall.close(errPipe[1])
        guard failure == 0 else {
            Syscall.close(outPipe[0])
            Syscall.close(errPipe[0])
            throw SystemError("exec(\(path))", errno: failure)
        }
        pid = started
        output = outPipe[0]
        errorOutput = errPipe[0]
    }

    deinit { terminate() }

    /// How the child ended, if it has (without waiting).
    public func poll() -> Ending? {
        if let ending { return ending }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        ending = Self.ending(status)
        return ending
    }

    /// How the child ended, waiting up to `milliseconds` for it to end; nil when it still runs.
    /// The kernel says when on a pidfd; a kernel without pidfds (before 5.3) is asked every 10 ms.
    public func ending(within milliseconds: Int) -> Ending? {
        if let ending = poll() { return ending }
        let exited = snapshare_pidfd_open(pid)
        guard exited >= 0 else {
            var waited = 0
            while poll() == nil && waited < milliseconds {
                // No pidfd: only waitpid tells, and a blocking one could not give up.
                usleep(10_000)
                waited += 10
            }
            return poll()
        }
        defer { Syscall.close(exited) }
        _ = try? Syscall.waitUntilReadable(exited, timeoutMilliseconds: Int32(clamping: milliseconds))
        return poll()
    }

    /// Ends the child if it still runs (SIGTERM, then SIGKILL after `graceMilliseconds`), reaps
    /// it and closes our pipe ends. Safe to call twice; returns how it ended.
    @discardableResult
    public func terminate(graceMilliseconds: Int = 500) -> Ending? {
        if poll() == nil {
            kill(pid, SIGTERM)
            if ending(within: graceMilliseconds) == nil {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                ending = Self.ending(status)
            }
        }
        closeOutput()
        if !errorOutputClosed {
            errorOutputClosed = true
            Syscall.close(errorOutput)
        }
        return ending
    }

    /// Closes our end of the child's standard output now: a child blocked writing to it gets
    /// EPIPE (or SIGPIPE, at its default) at once rather than waiting for a reader. Safe to call
    /// twice; `output` must not be used after it.
    public func closeOutput() {
        guard !outputClosed else { return }
        outputClosed = true
        Syscall.close(output)
    }

    private static func ending(_ status: Int32) -> Ending {
        // WIFEXITED and friends are macros Swift does not see.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
    }

    /// `strings` as a NULL-terminated array of C strings for the length of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}
