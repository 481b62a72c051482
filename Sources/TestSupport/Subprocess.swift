import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built executables as a user would, with a deadline after which they are killed.
package enum Subprocess {
    package struct Result: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// The folder holding the built products (`.build/debug` or `.build/release`).
    package static var productsDirectory: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    package static func executable(_ name: String) -> String { productsDirectory.appendingPathComponent(name).path }

    /// Runs the built executable `name` with `arguments`, without any inherited SNAPSHARE_*
    /// variables; kills it after `timeout` seconds.
    package static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        stdin: String? = nil, timeout: Double = 60
    ) throws -> Result {
        try launch(executable(name), arguments, environment: ourEnvironment(environment), stdin: stdin, timeout: timeout)
    }

    /// Starts the built executable `name` and leaves it running, its standard output readable
    /// line by line; for commands that keep going, like a watch. Standard error is discarded, or
    /// with `mergingStandardError` goes into the same pipe, as with `2>&1 | tee`.
    package static func start(
        _ name: String, _ arguments: [String], environment: [String: String] = [:],
        mergingStandardError: Bool = false
    ) throws -> RunningProcess {
        try RunningProcess(
            executable(name), arguments, environment: ourEnvironment(environment),
            mergingStandardError: mergingStandardError)
    }

    /// This process's environment without any SNAPSHARE_* variable (a developer's own class code
    /// or server must not leak into a test), plus `extra`.
    static func ourEnvironment(_ extra: [String: String]) -> [String: String] {
        // NO_COLOR is the test runner's, for its own output; a test that wants it says so.
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SNAPSHARE_") && $0.key != "NO_COLOR" }
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs a program that is not ours (by absolute path), in this process's environment plus `environment`.
    package static func runTool(
        _ path: String, _ arguments: [String], environment: [String: String] = [:],
        stdin: String? = nil, timeout: Double = 60
    ) throws -> Result {
        let merged = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        return try launch(path, arguments, environment: merged, stdin: stdin, timeout: timeout)
    }

    private static func launch(
        _ path: String, _ arguments: [String], environment: [String: String]?,
        stdin: String?, timeout: Double
    ) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Read both pipes while waiting so a chatty child never blocks on a full pipe.
        let outData = LockedData()
        let errData = LockedData()
        // On threads of their own: Dispatch's global queues share their few threads with the
        // test runner's blocked ones, and a reader waiting for one can stall the child.
        let group = DispatchGroup()
        for (pipe, sink) in [(out, outData), (err, errData)] {
            group.enter()
            NamedThread.start("pipe-reader") {
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            // Process.terminate() may not work for children started from async code (SIGTERM
            // blocked there): send SIGKILL to the pid.
            Signals.send(SIGKILL, to: process.processIdentifier)
        }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, stdout: outData.string, stderr: errData.string)
    }
}

/// Collected output from a pipe reader thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) {
        lock.lock()
        data = value
        lock.unlock()
    }
    var string: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A server started as its own process, for kill -9 and restart tests.
package final class ServerProcess: @unchecked Sendable {
    private let child: RunningProcess
    package var process: Process { child.process }
    package let port: Int

    /// What it printed up to and including its "listening" line.
    package private(set) var startLines: [String] = []

    /// Starts `snapshare-server` with `arguments` plus `--listen HOST:PORT`, waits until it
    /// listens. With `mergingStandardError` its log lines follow in `lines`.
    package init(
        dataDirectory: String, certsDirectory: String, port: Int, host: String = "127.0.0.1", arguments: [String] = [],
        logLevel: String = "warning", environment: [String: String] = [:], mergingStandardError: Bool = false
    ) throws {
        self.port = port
        child = try Subprocess.start(
            "snapshare-server",
            [
                "--listen", "\(host):\(port)", "--data", dataDirectory,
                "--certs", certsDirectory, "--log-level", logLevel,
            ] + arguments,
            environment: environment, mergingStandardError: mergingStandardError)
        // A stdout line says it is listening.
        var printed: [String] = []
        guard
            child.lines.first(where: {
                printed.append($0)
                return $0.contains("listening")
            }) != nil
        else {
            child.kill()
            throw ProcessError("snapshare-server did not start listening on port \(port): \(printed.joined(separator: "\n"))")
        }
        startLines = printed
    }

    /// A server on a free port with its data and certificates in `directory`, logging at info
    /// level into `lines` (after its start-up lines).
    package static func logging(in directory: TemporaryDirectory, arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(
            dataDirectory: directory.file("data"), certsDirectory: directory.file("certs"), port: freePort(),
            arguments: arguments, logLevel: "info", mergingStandardError: true)
    }

    /// Its output after the "listening" line, as it comes.
    package var lines: OutputLines { child.lines }

    /// Sends `signal` to it.
    package func send(_ signal: Int32) { Signals.send(signal, to: process.processIdentifier) }

    /// Its exit status once it has exited within `timeout` seconds; nil while it still runs.
    package func exitStatus(within timeout: Double) -> Int32? {
        child.waitForExit(timeout: timeout) ? process.terminationStatus : nil
    }

    /// kill -9.
    package func killHard() { child.kill() }

    /// SIGTERM, then wait.
    package func stop() {
        Signals.send(SIGTERM, to: process.processIdentifier)
        if !child.waitForExit(timeout: 10) { killHard() }
    }

    /// A port that was free a moment ago.
    package static func freePort() -> Int {
        guard let fd = try? Socket.listen(host: "127.0.0.1", port: 0) else { return 0 }
        defer { Syscall.close(fd) }
        return Socket.localPort(fd)
    }
}

/// A failure starting or talking to a child process.
package struct ProcessError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// A child left running, whose output a test reads as it comes; killed when dropped.
package final class RunningProcess: @unchecked Sendable {
    package let process: Process
    private let output = Pipe()
    package let lines: OutputLines
    /// Left when the child has exited (and Foundation has reaped it).
    private let running = DispatchGroup()

    init(_ path: String, _ arguments: [String], environment: [String: String], mergingStandardError: Bool) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        process.standardOutput = output
        process.standardError = mergingStandardError ? output : FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        lines = OutputLines(output.fileHandleForReading)
        running.enter()
        process.terminationHandler = { [running] _ in running.leave() }
        do { try process.run() } catch {
            running.leave()
            throw error
        }
    }

    /// Waits up to `timeout` seconds for the child to exit; whether it has.
    package func waitForExit(timeout: Double) -> Bool {
        running.wait(timeout: .now() + timeout) == .success
    }

    /// Closes this end of the output pipe, as when the `tee` or `head` reading it exits: the
    /// child's next write to it fails with EPIPE. `lines` must not be read afterwards.
    package func closeOutput() {
        try? output.fileHandleForReading.close()
    }

    /// SIGKILL (see `Subprocess.launch` on why not `terminate()`), then wait.
    package func kill() {
        guard process.isRunning else { return }
        Signals.send(SIGKILL, to: process.processIdentifier)
        process.waitUntilExit()
    }

    deinit { kill() }
}
