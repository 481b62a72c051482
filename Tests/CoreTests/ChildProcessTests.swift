import Foundation
import Posix
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Child processes")
struct ChildProcessTests {
    static func shell(_ script: String) throws -> ChildProcess {
        try ChildProcess(path: "/bin/sh", arguments: ["-c", script], environment: ["PATH=/usr/bin:/bin"])
    }

    /// Everything written to `fd` until its end (or `seconds`).
    static func readAll(_ fd: Int32, seconds: Double = 10) throws -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = MonotonicClock.milliseconds() + Int64(seconds * 1000)
        while MonotonicClock.milliseconds() < deadline {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            _ = try Syscall.poll(&fds, timeoutMilliseconds: 100)
            switch try Syscall.read(fd, into: &buffer) {
            case .processed(0): return String(decoding: bytes, as: UTF8.self)
            case .processed(let count): bytes += buffer[0..<count]
            case .wouldBlock: continue
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How `process` ended, once it has (waiting up to `seconds`).
    static func ending(of process: ChildProcess, seconds: Double = 10) -> ChildProcess.Ending? {
        process.ending(within: Int(seconds * 1000))
    }

    @Test("standard output and standard error arrive on their own pipes, standard input is empty, and the exit status is kept")
    func exitStatus() throws {
        let process = try Self.shell("read line; echo \"out:$line:$GREETING\"; echo oops >&2; exit 3")
        let child = try ChildProcess(path: "/usr/bin/env", arguments: [], environment: ["GREETING=hello"])
        #expect(try Self.readAll(process.output) == "out::\n", "stdin is /dev/null; the environment is only what was given")
        #expect(try Self.readAll(process.errorOutput) == "oops\n")
        #expect(Self.ending(of: process) == .exited(3))
        #expect(process.poll() == .exited(3), "kept once reaped")
        #expect(process.terminate() == .exited(3), "nothing left to end")
        #expect(try Self.readAll(child.output) == "GREETING=hello\n")
        #expect(Self.ending(of: child) == .exited(0))
    }

    @Test("a child killed by a signal says which")
    func signalled() throws {
        let process = try Self.shell("kill -USR1 $$; sleep 5")
        #expect(Self.ending(of: process) == .signalled(SIGUSR1))
    }

    @Test("a program that does not exist, or cannot be run, throws exec's errno")
    func missingProgram() {
        let missing = #expect(throws: SystemError.self) { try ChildProcess(path: "/no/such/program", arguments: [], environment: []) }
        #expect(missing?.errno == ENOENT, "\(String(describing: missing))")
        let folder = #expect(throws: SystemError.self) { try ChildProcess(path: "/tmp", arguments: [], environment: []) }
        #expect(folder?.errno == EACCES, "\(String(describing: folder))")
    }

    @Test("terminate: a child that ignores SIGTERM gets SIGKILL after the grace period and is reaped")
    func terminateEscalates() throws {
        let process = try Self.shell("trap '' TERM; echo ready; exec sleep 60")
        var buffer = [UInt8](repeating: 0, count: 16)
        var fds = [pollfd(fd: process.output, events: Int16(POLLIN), revents: 0)]
        _ = try Syscall.poll(&fds, timeoutMilliseconds: 5000)
        _ = try Syscall.read(process.output, into: &buffer)
        let started = MonotonicClock.milliseconds()
        #expect(process.terminate(graceMilliseconds: 300) == .signalled(SIGKILL))
        #expect(MonotonicClock.milliseconds() - started >= 300, "SIGTERM was given its grace first")
        #expect(kill(process.pid, 0) == -1 && errno == ESRCH, "reaped: no zombie left")
        #expect(process.terminate() == .signalled(SIGKILL), "safe to call twice")
    }

    @Test("terminate: a child that heeds SIGTERM ends at once")
    func terminatePolitely() throws {
        let process = try Self.shell("exec sleep 60")
        let started = MonotonicClock.milliseconds()
        #expect(process.terminate(graceMilliseconds: 5000) == .signalled(SIGTERM))
        #expect(MonotonicClock.milliseconds() - started < 3000)
        #expect(kill(process.pid, 0) == -1 && errno == ESRCH)
    }

    @Test("ending(within:) gives up after its time on a child that runs, and answers at once when it ends")
    func endingWithin() throws {
        let process = try Self.shell("exec sleep 60")
        defer { process.terminate() }
        var started = MonotonicClock.milliseconds()
        #expect(process.ending(within: 200) == nil, "still running")
        #expect(MonotonicClock.milliseconds() - started >= 200, "waited its time")
        kill(process.pid, SIGUSR2)
        started = MonotonicClock.milliseconds()
        #expect(process.ending(within: 10_000) == .signalled(SIGUSR2))
        #expect(MonotonicClock.milliseconds() - started < 5_000, "heard at once, not at the end of the wait")
    }

    @Test("find: the first executable regular file of that name on the PATH; a name with a slash as it is")
    func find() throws {
        let first = TemporaryDirectory("path-a")
        let second = TemporaryDirectory("path-b")
        _ = try first.write("plain text", to: "tool", mode: 0o644)
        let script = try second.write("#!/bin/sh\n", to: "tool", mode: 0o755)
        try FileManager.default.createDirectory(atPath: first.path + "/folder", withIntermediateDirectories: false)
        #expect(ChildProcess.find("tool", searchPath: "\(first.path):\(second.path)") == script, "not executable is passed over")
        #expect(ChildProcess.find("folder", searchPath: first.path) == nil, "a folder is not a program")
        #expect(ChildProcess.find("tool", searchPath: first.path) == nil)
        #expect(ChildProcess.find("tool", searchPath: "") == nil)
        #expect(ChildProcess.find("sh", searchPath: nil) != nil, "no PATH: /usr/bin:/bin")
        #expect(ChildProcess.find(script, searchPath: "") == script)
        #expect(ChildProcess.find(first.path + "/tool", searchPath: nil) == nil)
    }
}
