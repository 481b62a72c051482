import Shared

/// Draws an image: full screen on a terminal (any key closes), else as text on standard output.
enum ImageDisplay {
    /// The most this client decodes whatever a server allows: 8192x8192 and 40 megapixels, that
    /// is 120 MB of pixels (and a copy) for a file that can be a few kilobytes.
    static let largest = ImageLimits.standard

    /// What to decode from the server that sent `welcome`: no more than it accepts from anyone
    /// (a larger image did not come through its checks), and never more than `largest`.
    static func limits(for welcome: Welcome) -> ImageLimits {
        ImageLimits(maxBytes: Int(welcome.maxImageBytes),
                    maxWidth: min(Int(welcome.maxImageDimension), largest.maxWidth),
                    maxHeight: min(Int(welcome.maxImageDimension), largest.maxHeight),
                    maxPixels: min(Int(welcome.maxImagePixels), largest.maxPixels))
    }

    /// Decodes and draws `bytes`; returns the decoded size. `caption` ends non-terminal output.
    /// The header is checked against `limits` before anything is decoded.
    @discardableResult
    static func show(bytes: [UInt8], limits: ImageLimits = largest, context: CommandContext,
                     caption: String?) throws(ClientError) -> (width: Int, height: Int) {
        let image: RGBImage
        do { image = try ImageCodec.decode(bytes, limits: limits) } catch {
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
