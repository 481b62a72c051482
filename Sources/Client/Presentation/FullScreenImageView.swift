import TerminalUI
import Dispatch
import Imaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Shows one image on the whole terminal until a key is pressed, then puts the terminal back.
///
/// The terminal is restored on every way out: normal return, a thrown error (defer), and
/// SIGTERM/SIGHUP/SIGINT. Signals are taken through Dispatch sources, so the restoring code runs
/// on an ordinary thread rather than inside a signal handler, where Swift code is not safe.
/// In raw mode Ctrl-C arrives as a key (ISIG is off) and simply closes the view.
public struct FullScreenImageView: Sendable {
    /// What is shown.
    public let image: RGBImage
    /// Where it is shown and keys are read.
    public let terminal: Terminal
    /// How pixels become cells.
    public let renderer: HalfBlockRenderer
    /// One line under the picture (what it is, and that any key closes), or nil for none.
    public let caption: String?

    /// A view of `image` on `terminal` (standard input and output by default).
    public init(image: RGBImage, terminal: Terminal = Terminal(), renderer: HalfBlockRenderer = HalfBlockRenderer(),
                caption: String? = nil) {
        self.image = image
        self.terminal = terminal
        self.renderer = renderer
        self.caption = caption
    }

    /// Shows the image and waits for a key; returns the key's bytes (empty if input closed).
    @discardableResult
    public func show() throws(Terminal.Failure) -> [InputEvent] {
        guard Terminal.isTerminal(terminal.input), Terminal.isTerminal(terminal.output) else {
            throw Terminal.Failure(operation: "open (not a terminal)", code: ENOTTY)
        }
        try terminal.enterAlternateScreen()
        defer { try? terminal.leaveAlternateScreen() }
        let saved = try terminal.enableRawMode()
        defer { try? terminal.restore(saved) }

        let watcher = SignalWatcher(view: self, saved: saved)
        defer { watcher.stop() }

        try draw()
        var parser = InputParser()
        return try terminal.nextEvents(using: &parser)
    }

    /// Draws the image over the whole screen at the terminal's current size.
    func draw() throws(Terminal.Failure) {
        let size = Terminal.sizeOrDefault(of: terminal.output)
        try terminal.write(frame(columns: size.columns, rows: size.rows))
    }

    /// The bytes of one full-screen frame: every row positioned explicitly, so nothing scrolls;
    /// the caption, cut to the width, on the last row.
    func frame(columns: Int, rows: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        let pictureRows = caption == nil ? rows : max(1, rows - 1)
        for (index, line) in renderer.render(image, columns: columns, rows: pictureRows).enumerated() {
            bytes += Array("\u{1B}[\(index + 1);1H".utf8)
            bytes += Array(line.utf8)
        }
        if let caption, rows > 1 {
            let text = PrintableText.clean(caption)
            let shown = text.count > columns ? String(text.prefix(max(0, columns - 1))) + "…" : text
            let pad = max(0, (columns - shown.count) / 2)
            bytes += Array("\u{1B}[\(rows);1H\u{1B}[2K".utf8) + Array((String(repeating: " ", count: pad) + shown).utf8)
        }
        return bytes
    }
}

/// Restores the terminal on termination signals and redraws on window size changes while a
/// full-screen view is up; `stop()` puts the previous signal dispositions back.
private final class SignalWatcher {
    private static let terminating: [Int32] = [SIGTERM, SIGHUP, SIGINT]

    private let queue = DispatchQueue(label: "snapshare.terminal.signals")
    private let sources: [DispatchSourceSignal]

    init(view: FullScreenImageView, saved: Terminal.SavedMode) {
        var sources: [DispatchSourceSignal] = []
        for signalNumber in Self.terminating {
            // Dispatch only sees a signal whose default action (terminate) is switched off.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler {
                try? view.terminal.restore(saved)
                try? view.terminal.leaveAlternateScreen()
                // Die of the same signal, so the parent sees the usual exit status. kill, not
                // raise: Dispatch's threads block signals, so it must reach another thread.
                signal(signalNumber, SIG_DFL)
                kill(getpid(), signalNumber)
            }
            sources.append(source)
        }
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: queue)
        resize.setEventHandler {
            try? view.terminal.write("\u{1B}[2J")
            try? view.draw()
        }
        sources.append(resize)
        self.sources = sources
        for source in sources { source.resume() }
    }

    func stop() {
        for source in sources { source.cancel() }
        // Wait for a handler that may be running (a redraw) before the screen is left.
        queue.sync {}
        for signalNumber in Self.terminating + [SIGWINCH] {
            signal(signalNumber, SIG_DFL)
        }
    }
}
