import Imaging
import Posix
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// The camera's live preview on the whole terminal, for `post --camera`: each new frame drawn as
/// it arrives (the camera's thread wakes the session; frames that arrive while one is drawn are
/// skipped, not queued), with the terminal's picture protocol where the probe found one (kitty,
/// sixel, iTerm2; sized from the real cells, as a snap is, and again after a resize), else in
/// half blocks drawn as the app's Camera tile draws them (`PictureCells` through a diffing
/// `ScreenWriter`, so a frame sends only the cells that changed). Space takes the picture, r
/// retakes, Enter returns it (taking one first when none is taken), Esc cancels. The camera is
/// stopped on every way out, and the session (started by the caller) gives the terminal back to
/// the caller.
struct CameraPreview {
    let session: TerminalSession
    /// How many colours half blocks are drawn with.
    let depth: ColorDepth
    /// How frames are drawn, and what the terminal said of its cells (`TerminalSession.probe`).
    var pictures: PictureProtocol = .halfblock
    var facts = TerminalFacts()
    let device: CameraDevice
    let environment: [String: String]

    /// The smallest terminal the preview draws in.
    static let minimumColumns = 20, minimumRows = 6

    /// Runs the preview until a picture is taken and Enter pressed; throws `.cancelled` (Esc, q
    /// or the terminal closed), `.interrupted` (Ctrl-C) or the camera's failure. SIGTERM, SIGHUP
    /// and SIGINT from outside stop the camera, give the terminal back and end the process by
    /// that signal.
    func run() throws(ClientError) -> CameraCapture.Frame {
        let size = Terminal.sizeOrDefault(of: session.terminal.output)
        guard size.columns >= Self.minimumColumns, size.rows >= Self.minimumRows else {
            throw ClientError(
                .camera,
                "the terminal is too small for the camera's preview: \(size.columns)x\(size.rows), "
                    + "at least \(Self.minimumColumns)x\(Self.minimumRows) is needed")
        }
        let session = session
        let capture = try CameraCapture(device: device, environment: environment, onChange: { session.wake() })
        defer {
            capture.stop()
            if pictures == .kitty { try? session.terminal.write(PictureEscapes.kittyDeleteAll) }
        }
        var parser = InputParser()
        var taken: CameraCapture.Frame?
        var onScreen: CameraCapture.Frame?
        var shown = -1
        var facts = facts
        var writer = ScreenWriter(depth: depth)
        try draw(nil, taken: false, clear: true, facts: facts, writer: &writer)
        while true {
            let wakeup: TerminalSession.Wakeup
            do { wakeup = try session.wait(timeoutMilliseconds: 500, decodingWith: &parser) } catch {
                throw ClientError(.local, "cannot read the terminal: \(error)")
            }
            let sizing = facts.pictureSizing
            let events = facts.absorb(answersIn: wakeup.events)
            // New cells or a new sixel limit: the picture again, sized for them.
            var clear = facts.pictureSizing != sizing && pictures != .halfblock
            for signal in wakeup.signals {
                let outcome: TerminalSession.SignalOutcome
                do {
                    outcome = try session.respond(to: signal)
                    if outcome == .redraw { try session.askAgain(&facts, asking: pictures != .halfblock) }
                } catch { throw ClientError(.local, "cannot take the terminal back: \(error)") }
                switch outcome {
                case .redraw: clear = true
                case .end:
                    capture.stop()
                    session.close()
                    Signals.reraise(signal)
                }
            }
            if wakeup.inputClosed { throw ClientError(.cancelled, "the terminal closed: nothing was posted") }
            for event in events {
                switch event {
                case .key(.character(" "), _):
                    taken = onScreen ?? capture.latest
                case .key(.character("r"), _), .key(.character("R"), _):
                    taken = nil
                case .key(.enter, _):
                    // The frame on the screen, not a newer one the eye has not seen.
                    if let picture = taken ?? onScreen ?? capture.latest { return picture }
                case .key(.escape, _), .key(.character("q"), _):
                    throw ClientError(.cancelled, "cancelled: nothing was posted")
                case .key(.control("c"), _):
                    throw ClientError(.interrupted, "interrupted: nothing was posted")
                default: break
                }
            }
            if taken == nil, let failure = capture.failure { throw failure }
            let frame = taken ?? capture.latest
            if clear || (frame?.number ?? 0) != shown || !events.isEmpty {
                shown = frame?.number ?? 0
                onScreen = frame
                try draw(frame?.image, taken: taken != nil, clear: clear, facts: facts, writer: &writer)
            }
        }
    }

    /// One whole screen: the picture (or a wait) above a line of keys, as one synchronized update.
    /// Half blocks go through `writer`, which sends only the cells that changed since its last
    /// frame; anything else drawn (a protocol's picture, a clear) makes it draw all of the next.
    private func draw(_ image: RGBImage?, taken: Bool, clear: Bool, facts: TerminalFacts, writer: inout ScreenWriter) throws(ClientError) {
        let size = Terminal.sizeOrDefault(of: session.terminal.output)
        var bytes: [UInt8] = []
        if clear {
            bytes += Array("\u{1B}[2J".utf8)
            writer.invalidate()
        }
        switch Self.screen(
            image, taken: taken, device: device, columns: size.columns, rows: size.rows, on: session.terminal, depth: depth,
            pictures: pictures, facts: facts)
        {
        case .cells(let grid)?:
            bytes += writer.frame(grid)
        case .escapes(let escapes)?:
            bytes += escapes
            writer.invalidate()
        case nil:
            bytes += Array("\u{1B}[2J\u{1B}[1;1HToo small".utf8)
            writer.invalidate()
        }
        bytes = ScreenWriter.synchronized(bytes)
        do { try session.terminal.write(bytes) } catch { throw ClientError(.local, "cannot draw on the terminal: \(error)") }
    }

    /// The screen of `columns` x `rows` cells for a frame of `device` (nil: none has come yet),
    /// drawn as a snap is drawn full screen, with the keys as its caption; nil when the terminal
    /// is too small.
    static func screen(
        _ image: RGBImage?, taken: Bool, device: CameraDevice, columns: Int, rows: Int, on terminal: Terminal,
        depth: ColorDepth, pictures: PictureProtocol, facts: TerminalFacts
    ) -> FullScreenImageView.Screen? {
        guard columns >= minimumColumns, rows >= minimumRows else { return nil }
        let caption =
            taken
            ? "Taken · Enter posts · r retakes · Esc cancels"
            : image == nil ? "Opening \(device)… · Esc cancels" : "Camera \(device) · Space takes · Enter posts · Esc cancels"
        // Before the first frame, an empty picture: the caption alone.
        let view = FullScreenImageView(
            image: image ?? RGBImage(width: 0, height: 0, pixels: []), terminal: terminal, depth: depth,
            caption: caption)
        return image == nil
            ? .cells(view.grid(columns: columns, rows: rows))
            : view.screen(columns: columns, rows: rows, pictures: pictures, facts: facts)
    }
}
