import Imaging
import Posix
import TerminalUI
import Wire

/// Draws an image: full screen on a terminal (any key closes), else as text on standard output.
enum ImageDisplay {
    static let largest = Welcome.largestDecoded

    /// The terminal taken and asked what it shows (`TerminalSession.probe`), before the picture
    /// is fetched: a snap's one view is spent only once it is known how it will be drawn.
    final class Screen {
        let session: TerminalSession
        let choice: PictureChoice
        let facts: TerminalFacts
        let depth: ColorDepth

        fileprivate init(session: TerminalSession, choice: PictureChoice, facts: TerminalFacts, depth: ColorDepth) {
            self.session = session
            self.choice = choice
            self.facts = facts
            self.depth = depth
        }

        deinit { session.close() }
    }

    /// Takes the terminal when standard input and output are one (nil otherwise: the drawing
    /// then goes to standard output as text), and chooses how pictures are drawn from
    /// `--pictures` and the terminal's answers, the same way as the app.
    static func prepare(_ context: CommandContext) throws(ClientError) -> Screen? {
        let terminal = Terminal()
        guard Terminal.isTerminal(terminal.output) && Terminal.isTerminal(terminal.input) else { return nil }
        let requested = try AppCommand.requestedPictures(context)
        do {
            let session = try TerminalSession(terminal: terminal)
            try session.start()
            let probe = try session.probe(environment: context.environment)
            let screen = Screen(
                session: session, choice: PictureProtocol.choose(requested, environment: context.environment, facts: probe.facts),
                facts: probe.facts, depth: ColorDepth.detect(context.environment, version: probe.facts.version))
            for signal in probe.signals where try session.respond(to: signal) == .end {
                session.close()
                Signals.reraise(signal)
            }
            return screen
        } catch {
            throw ClientError(.local, "cannot draw on this terminal: \(error)")
        }
    }

    /// Decodes and draws `bytes`; returns the decoded size. The header is checked against
    /// `limits` before anything is decoded.
    ///
    /// On a terminal (`screen`, or one taken now) the picture fills the alternate screen with
    /// `title` and "any key closes" on its last row, drawn with the terminal's picture protocol
    /// or in half blocks; once a key closed it `afterwards` is printed, so the scrollback keeps a
    /// record of what was shown, with the reason when a protocol asked for was not there.
    /// Otherwise the drawing goes to standard output followed by the machine-readable `caption`.
    @discardableResult
    static func show(
        bytes: [UInt8], limits: ImageLimits = largest, context: CommandContext, screen: Screen? = nil, title: String,
        afterwards: String? = nil, caption: String?
    ) throws(ClientError) -> (width: Int, height: Int) {
        let image: RGBImage
        do { image = try ImageCodec.decode(bytes, limits: limits) } catch {
            throw ClientError(.integrity, "cannot draw the image: \(error.description)")
        }
        let taken: Screen?
        if let screen { taken = screen } else { taken = try prepare(context) }
        if let screen = taken {
            let view = FullScreenImageView(
                image: image, terminal: screen.session.terminal, depth: screen.depth,
                caption: "\(title) · any key closes")
            do { _ = try view.show(in: screen.session, pictures: screen.choice.pictures, facts: screen.facts) } catch {
                throw ClientError(.local, "cannot draw on this terminal: \(error)")
            }
            screen.session.close()
            if let notice = screen.choice.notice { context.console.err(notice) }
            if let afterwards { context.console.out(afterwards) }
        } else {
            let size = Terminal.sizeOrDefault(of: Terminal().output)
            let lines = Self.lines(image, columns: size.columns, rows: max(1, size.rows - 1), depth: ColorDepth.detect(context.environment))
            context.console.raw(lines.joined(separator: "\n") + "\n")
            if let caption { context.console.out(caption) }
        }
        return (image.width, image.height)
    }

    /// `image` as `rows` lines of text for output that is not a screen: the half blocks a screen
    /// of `columns` x `rows` cells shows (`FullScreenImageView`), each line as wide.
    static func lines(_ image: RGBImage, columns: Int, rows: Int, depth: ColorDepth) -> [String] {
        ScreenWriter(depth: depth).lines(FullScreenImageView(image: image, depth: depth).grid(columns: columns, rows: rows))
    }
}
