import Foundation
import Imaging
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A program running in a real terminal emulator on a private X server (Xvfb), driven as a person
/// would: keys in with xdotool, the screen read back as the pixels of a screenshot of the window.
/// For what only pixels show, such as where a sixel or kitty picture lands, how big it is and
/// what it leaves behind. The terminal, everything started inside it, and the X server are killed
/// when it is released, also after a failed test.
package final class X11Terminal: @unchecked Sendable {
    /// A terminal emulator, as Debian packages it.
    package enum Emulator: Sendable, Equatable {
        /// xterm; with `sixel`, as a VT340 with 256 colour registers (DA1 then includes 4, sixel).
        case xterm(sixel: Bool)
        /// kitty (the kitty graphics protocol), on Mesa's software OpenGL.
        case kitty
    }

    /// The font the cells are drawn in.
    package enum Font: Sendable, Equatable {
        /// The terminal's own: xterm's `fixed` (6x13-pixel cells), kitty's monospace at 11 points (9x20).
        case standard
        /// An outline font by fontconfig name at `points` (xterm `-fa -fs`, kitty `font_family`, `font_size`);
        /// `Monospace` at 11 gives xterm 11x22-pixel cells.
        case outline(family: String, points: Double)
        /// An X bitmap font such as `9x15` (xterm `-fn`); kitty has none.
        case bitmap(String)
    }

    package let emulator: Emulator
    /// The terminal's X window (its `WINDOWID`), whose pixels `screenshot` reads.
    package let windowID: String
    /// The X display it runs on, such as `:3`.
    package var display: String { server.name }

    private let directory: TemporaryDirectory
    private let server: X11Display
    private let terminal: GroupedProcess
    /// The process group of the session inside the terminal: the start script, the command and its children.
    private let session: pid_t

    /// Starts `command` (a path) with `arguments` in `emulator`, `columns` x `rows` cells in `font`,
    /// with `environment` added to this process's (less SNAPSHARE_* variables and any terminal's
    /// own, such as TERM, which the emulator sets). Returns once the window has the keyboard focus.
    /// When the command exits, the window stays open (see `exitStatus`).
    package init(
        _ emulator: Emulator, command: String, arguments: [String] = [], environment: [String: String] = [:],
        columns: Int = 80, rows: Int = 24, font: Font = .standard
    ) throws {
        self.emulator = emulator
        let directory = TemporaryDirectory("x11-terminal")
        self.directory = directory
        let launch = try Self.launch(emulator, columns: columns, rows: rows, font: font, directory: directory)
        let script = try directory.write(Self.startScript, to: "start.sh", mode: 0o700)
        server = try X11Display(in: directory)
        var variables = Subprocess.ourEnvironment([:]).filter { !Self.terminalVariables.contains($0.key) && !$0.key.hasPrefix("KITTY_") }
        variables["LANG"] = "C.UTF-8"
        variables.merge(launch.environment.merging(environment) { _, new in new }) { _, new in new }
        variables["DISPLAY"] = server.name
        terminal = try GroupedProcess(
            launch.path, launch.arguments + ["/bin/sh", script, directory.path, command] + arguments,
            environment: variables, errorLog: directory.file("terminal.log"))
        // The start script writes the window id and its own pid once the terminal runs it (into
        // a file moved into place whole: a file appearing, which nothing announces).
        let terminal = terminal
        let started = try? eventually("\(emulator) to start its command", timeout: 20, every: 0.05) { () throws -> [String]? in
            guard terminal.isRunning else { throw ProcessError("\(emulator) exited") }
            let words = ((try? String(contentsOfFile: directory.file("window"), encoding: .utf8)) ?? "").split(separator: " ").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            return words.count == 2 ? words : nil
        }
        // Never 0 or 1 (a kill of group 0 or -1 would reach far more than the session).
        guard let started, let session = pid_t(started[1]), session > 1 else {
            terminal.stop()
            throw ProcessError("\(emulator) opened no window: \(terminal.errorText)")
        }
        windowID = started[0]
        self.session = session
        // xterm ignores synthetic key events; xdotool sends real ones (XTEST) to the focused window.
        try xdotool(["windowfocus", "--sync", windowID])
    }

    deinit {
        Signals.send(SIGKILL, to: -session)
        terminal.stop()
    }

    /// Why `emulator` cannot run on this machine (a package missing, or kitty opening no window even
    /// on software OpenGL); nil when it can. Found out once per test run, by starting it.
    package static func unavailability(of emulator: Emulator) -> String? {
        switch emulator {
        case .xterm: xtermProblem
        case .kitty: kittyProblem
        }
    }

    /// Whether `emulator` runs on this machine (see `unavailability(of:)`).
    package static func isUsable(_ emulator: Emulator) -> Bool { unavailability(of: emulator) == nil }

    /// Where screenshots for the guides (docs/images) go when a run asks for them with SNAPSHARE_SCREENSHOTS=folder.
    package static var screenshotsDirectory: String? { ProcessInfo.processInfo.environment["SNAPSHARE_SCREENSHOTS"] }

    /// Presses `keys`, in xdotool's names: `Return`, `Escape`, `Tab`, `Right`, `ctrl+c`, `q`.
    package func press(_ keys: String...) throws {
        try xdotool(["key", "--window", windowID, "--"] + keys)
    }

    /// Types `text`, one key press a character.
    package func type(_ text: String) throws {
        try xdotool(["type", "--window", windowID, "--delay", "20", "--", text])
    }

    /// Resizes the window to `columns` x `rows` cells, as a person dragging its corner would: the
    /// program inside gets SIGWINCH. The window's size hints turn cells into pixels.
    package func resize(columns: Int, rows: Int) throws {
        try xdotool(["windowsize", "--usehints", windowID, String(columns), String(rows)])
    }

    /// The window's pixels now, its 2-pixel border included in xterm; also written as a PNG to
    /// `path` when given.
    package func screenshot(savingTo path: String? = nil) throws -> RGBImage {
        guard let tool = X11Tools.screenshot else { throw ProcessError("ImageMagick's import is not installed") }
        let file = directory.file("screenshot.png")
        let result = try Subprocess.runTool(tool, ["-display", server.name, "-window", windowID, "png24:" + file], timeout: 20)
        guard result.status == 0 else { throw ProcessError("import failed: \(result.stderr)") }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        if let path { try StagedOutput.write(bytes, to: path, mode: 0o644, replacing: true) }
        return try ImageCodec.decode(bytes)
    }

    /// Takes screenshots until `condition` holds of a settled one or `timeout` passes; returns the
    /// last (see `SettledScreen.wait`).
    @discardableResult
    package func wait(timeout: Double = 10, until condition: (RGBImage) -> Bool) throws -> RGBImage {
        try SettledScreen.wait(timeout: timeout, every: 0.15, capture: { try screenshot() }, until: condition)
    }

    /// The command's exit status once it has exited; nil while it runs.
    package var exitStatus: Int32? {
        (try? String(contentsOfFile: directory.file("status"), encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    // MARK: Plumbing

    /// Run by the terminal with the folder, the command and its arguments. Tells the test the
    /// window and this session's process group (a terminal starts its command in a session of its
    /// own, out of reach of a kill of the terminal's group), runs the command, then keeps the
    /// window open so that its last screen can still be read.
    private static let startScript = """
        folder=$1; shift
        echo "${WINDOWID:-} $$" > "$folder/window.new" && mv "$folder/window.new" "$folder/window"
        "$@"
        echo $? > "$folder/status.new" && mv "$folder/status.new" "$folder/status"
        exec sleep infinity

        """

    /// Variables a terminal sets for its programs; inherited ones would describe another terminal.
    private static let terminalVariables: Set<String> = [
        "TERM", "COLORTERM", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "WINDOWID", "TMUX", "TMUX_PANE", "VTE_VERSION",
        "LC_TERMINAL", "LC_TERMINAL_VERSION", "WEZTERM_EXECUTABLE", "ITERM_SESSION_ID",
    ]

    private static let xtermProblem = problem(starting: .xterm(sixel: false))
    private static let kittyProblem = problem(starting: .kitty)

    private static func problem(starting emulator: Emulator) -> String? {
        let program = emulator == .kitty ? ("kitty", X11Tools.kitty) : ("xterm", X11Tools.xterm)
        if let missing = X11Tools.missing(besides: program) { return missing }
        do {
            _ = try X11Terminal(emulator, command: "/bin/true")
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The emulator's program, options (before the command) and variables.
    private static func launch(
        _ emulator: Emulator, columns: Int, rows: Int, font: Font,
        directory: TemporaryDirectory
    ) throws -> (path: String, arguments: [String], environment: [String: String]) {
        switch emulator {
        case .xterm(let sixel):
            guard let path = X11Tools.xterm else { throw ProcessError("xterm is not installed") }
            let graphics = sixel ? ["-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256"] : []
            let fontOptions: [String] =
                switch font {
                case .standard: []
                case .outline(let family, let points): ["-fa", family, "-fs", String(points)]
                case .bitmap(let name): ["-fn", name]
                }
            return (path, ["-geometry", "\(columns)x\(rows)"] + graphics + fontOptions + ["-e"], [:])
        case .kitty:
            guard let path = X11Tools.kitty else { throw ProcessError("kitty is not installed") }
            let fontOptions: [String] =
                switch font {
                case .standard: []
                case .outline(let family, let points): ["font_family=\(family)", "font_size=\(points)"]
                case .bitmap: throw ProcessError("kitty draws no X bitmap fonts")
                }
            // No user configuration, no padding, a steady cursor (so that screenshots settle), no bell.
            let options =
                [
                    "remember_window_size=no", "initial_window_width=\(columns)c", "initial_window_height=\(rows)c",
                    "window_padding_width=0", "cursor_blink_interval=0", "enable_audio_bell=no", "update_check_interval=0",
                    "confirm_os_window_close=0", "shell_integration=disabled",
                ] + fontOptions
            let environment = [
                "LIBGL_ALWAYS_SOFTWARE": "1", "KITTY_CONFIG_DIRECTORY": directory.file("kitty"),
                "KITTY_CACHE_DIRECTORY": directory.file("kitty"),
            ]
            return (path, ["--config", "NONE"] + options.flatMap { ["-o", $0] }, environment)
        }
    }

    private func xdotool(_ arguments: [String]) throws {
        guard let path = X11Tools.xdotool else { throw ProcessError("xdotool is not installed") }
        let result = try Subprocess.runTool(path, arguments, environment: ["DISPLAY": server.name], timeout: 20)
        guard result.status == 0 else { throw ProcessError("xdotool \(arguments.joined(separator: " ")) failed: \(result.stderr)") }
    }
}
