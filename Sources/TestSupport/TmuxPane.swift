import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A program running in its own tmux server and pane, driven as a person would: keys in with
/// `send-keys`, the screen read back with `capture-pane`. Each pane has a private tmux socket, so
/// tests never meet a developer's own tmux or each other.
package final class TmuxPane {
    package static var isAvailable: Bool { tmuxPath != nil }
    private static let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

    private let socket: String
    private let directory: TemporaryDirectory

    /// Starts `command` (a shell command line) in a `columns` x `rows` pane with `environment`.
    package init(_ command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        directory = TemporaryDirectory("tmux")
        socket = directory.path + "/socket"
        let exports = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }.joined(separator: " ")
        let line = "env \(exports) \(command)"
        // The tmux server this starts keeps whatever descriptors it inherits, and its forks
        // confuse Foundation's Process: no pipes, no Process, a plain shell command instead.
        guard let path = Self.tmuxPath else { throw ProcessError("tmux is not installed") }
        let start = [
            path, "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "app", "-x", String(columns), "-y", String(rows), line,
        ]
        .map(Self.quoted).joined(separator: " ")
        InheritedDescriptors.closeOnExec()
        _ = ChildProcess.shell(start + " </dev/null >/dev/null 2>&1")
        guard try tmux(["has-session", "-t", "app"]).status == 0 else { throw ProcessError("tmux did not start: \(start)") }
        // Keep the pane after the program exits, so its last screen can be read.
        _ = try tmux(["set-option", "-t", "app", "remain-on-exit", "on"])
    }

    deinit { _ = try? tmux(["kill-server"]) }

    /// Types `keys` (tmux key names such as `Enter`, `Tab`, `Right`, or literal text with `literal`).
    package func send(_ keys: String..., literal: Bool = false) throws {
        _ = try tmux(["send-keys", "-t", "app"] + (literal ? ["-l"] : []) + keys)
    }

    /// Types `values` into a form's fields, one after the other, with Tab between them.
    package func fill(_ values: String...) throws {
        for (index, value) in values.enumerated() {
            if index > 0 { try send("Tab") }
            try send(value, literal: true)
        }
    }

    /// Resizes the window (the program gets SIGWINCH).
    package func resize(columns: Int, rows: Int) throws {
        _ = try tmux(["resize-window", "-t", "app", "-x", String(columns), "-y", String(rows)])
    }

    /// The pane's text now; with `styles`, its colours and attributes too, as escape sequences
    /// (two pictures in half blocks differ only in those).
    package func capture(styles: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (styles ? ["-e"] : []) + ["-t", "app"]).stdout
    }

    /// Captures until `condition` holds of a settled screen or `timeout` passes; returns the last
    /// screen (see `SettledScreen.wait`); with `styles`, captured with its colours and attributes.
    @discardableResult
    package func wait(timeout: Double = 30, styles: Bool = false, until condition: (String) -> Bool) throws -> String {
        try SettledScreen.wait(timeout: timeout, every: 0.05, capture: { try capture(styles: styles) }, until: condition)
    }

    /// Whether the program in the pane has exited.
    package func hasExited() throws -> Bool {
        try tmux(["display-message", "-p", "-t", "app", "#{pane_dead}"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    private func tmux(_ arguments: [String]) throws -> Subprocess.Result {
        guard let path = Self.tmuxPath else { throw ProcessError("tmux is not installed") }
        return try Subprocess.runTool(path, ["-S", socket, "-f", "/dev/null"] + arguments, timeout: 30)
    }

    private static func quoted(_ value: String) -> String { "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
