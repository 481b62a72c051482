#if canImport(Glibc)
import Glibc
#endif
import Imaging
import Posix
import TerminalUI

/// The camera's live preview on the whole terminal, for `post --camera`: each new frame drawn as
/// it arrives (the camera's thread wakes the session; frames that arrive while one is drawn are
/// skipped, not queued), with the terminal's picture protocol where the probe found one (kitty,
/// sixel, iTerm2; sized from the real cells, as a snap is), else in half blocks. Space takes the picture, r retakes, Enter returns it
/// (taking one first when none is taken), Esc cancels. The camera is stopped on every way out,
/// and the session (started by the caller) gives the terminal back to the caller.
struct CameraPreview {
    let session: TerminalSession
    let renderer: HalfBlockRenderer
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
            throw ClientError(.camera, "the terminal is too small for the camera's preview: \(size.columns)x\(size.rows), "
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
        try draw(nil, taken: false, clear: true)
        while true {
            let wakeup: TerminalSession.Wakeup
            do { wakeup = try session.wait(timeoutMilliseconds: 500, decodingWith: &parser) } catch {
                throw ClientError(.local, "cannot read the terminal: \(error)")
            }
            var clear = false
            for signal in wakeup.signals {
                let outcome: TerminalSession.SignalOutcome
                do { outcome = try session.respond(to: signal) } catch { throw ClientError(.local, "cannot take the terminal back: \(error)") }
                switch outcome {
                case .redraw: clear = true
                case .end:
                    capture.stop()
                    session.close()
                    Signals.reraise(signal)
                }
            }
            if wakeup.inputClosed { throw ClientError(.cancelled, "the terminal closed: nothing was posted") }
            for event in wakeup.events {
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
            if clear || (frame?.number ?? 0) != shown || !wakeup.events.isEmpty {
                shown = frame?.number ?? 0
                onScreen = frame
                try draw(frame?.image, taken: taken != nil, clear: clear)
            }
        }
    }

    /// One whole screen: the picture (or a wait) above a line of keys, as one synchronized update.
    private func draw(_ image: RGBImage?, taken: Bool, clear: Bool) throws(ClientError) {
        let size = Terminal.sizeOrDefault(of: session.terminal.output)
        let caption = taken ? "Taken · Enter posts · r retakes · Esc cancels"
            : image == nil ? "Opening \(device)… · Esc cancels" : "Camera \(device) · Space takes · Enter posts · Esc cancels"
        var bytes = Array("\u{1B}[?2026h".utf8)
        if clear { bytes += Array("\u{1B}[2J".utf8) }
        if size.columns < Self.minimumColumns || size.rows < Self.minimumRows {
            bytes += Array("\u{1B}[2J\u{1B}[1;1HToo small".utf8)
        } else {
            if let image {
                // Drawn as a snap is drawn full screen, caption and all.
                bytes += FullScreenImageView(image: image, terminal: session.terminal, renderer: renderer, caption: caption)
                    .screen(columns: size.columns, rows: size.rows, pictures: pictures, facts: facts)
            } else {
                bytes += FullScreenImageView.captionLine(caption, columns: size.columns, rows: size.rows)
            }
        }
        bytes += Array("\u{1B}[?2026l".utf8)
        do { try session.terminal.write(bytes) } catch { throw ClientError(.local, "cannot draw on the terminal: \(error)") }
    }
}
