import TerminalUI
import Wire
import Imaging

/// Draws an image: full screen on a terminal (any key closes), else as text on standard output.
enum ImageDisplay {
    static let largest = Welcome.largestDecoded

    /// Decodes and draws `bytes`; returns the decoded size. The header is checked against
    /// `limits` before anything is decoded.
    ///
    /// On a terminal the picture fills the alternate screen with `title` and "any key closes" on
    /// its last row, and once a key closed it `afterwards` is printed, so the scrollback keeps a
    /// record of what was shown. Otherwise the drawing goes to standard output followed by the
    /// machine-readable `caption` line.
    @discardableResult
    static func show(bytes: [UInt8], limits: ImageLimits = largest, context: CommandContext, title: String,
                     afterwards: String? = nil, caption: String?) throws(ClientError) -> (width: Int, height: Int) {
        let image: RGBImage
        do { image = try ImageCodec.decode(bytes, limits: limits) } catch {
            throw ClientError(.integrity, "cannot draw the image: \(error.description)")
        }
        let terminal = Terminal()
        let renderer = HalfBlockRenderer(depth: ColorDepth.detect(context.environment))
        if Terminal.isTerminal(terminal.output) && Terminal.isTerminal(terminal.input) {
            let view = FullScreenImageView(image: image, terminal: terminal, renderer: renderer,
                                           caption: "\(title) · any key closes")
            do { _ = try view.show() } catch {
                throw ClientError(.local, "cannot draw on this terminal: \(error)")
            }
            if let afterwards { context.console.out(afterwards) }
        } else {
            let size = Terminal.sizeOrDefault(of: terminal.output)
            let lines = renderer.render(image, columns: size.columns, rows: max(1, size.rows - 1))
            context.console.raw(lines.joined(separator: "\n") + "\n")
            if let caption { context.console.out(caption) }
        }
        return (image.width, image.height)
    }
}
