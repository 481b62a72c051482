import Shared

/// Draws an image: full screen on a terminal (any key closes), else as text on standard output.
enum ImageDisplay {
    /// Decodes and draws `bytes`; returns the decoded size. `caption` ends non-terminal output.
    @discardableResult
    static func show(bytes: [UInt8], context: CommandContext, caption: String?) throws(ClientError) -> (width: Int, height: Int) {
        let image: RGBImage
        do { image = try ImageCodec.decode(bytes, limits: ImageLimits()) } catch {
            throw ClientError(.integrity, "cannot draw the image: \(error.description)")
        }
        let terminal = Terminal()
        if Terminal.isTerminal(terminal.output) && Terminal.isTerminal(terminal.input) {
            do { _ = try FullScreenImageView(image: image, terminal: terminal).show() } catch {
                throw ClientError(.local, "cannot draw on this terminal: \(error)")
            }
        } else {
            let size = Terminal.sizeOrDefault(of: terminal.output)
            let lines = HalfBlockRenderer().render(image, columns: size.columns, rows: max(1, size.rows - 1))
            context.console.raw(lines.joined(separator: "\n") + "\n")
            if let caption { context.console.out(caption) }
        }
        return (image.width, image.height)
    }
}
