import TerminalUI
import Imaging

/// Draws an image in a terminal with "▀" cells: two pixels per character cell.
///
/// The upper pixel is the cell's foreground colour, the lower pixel its background, as 24-bit
/// or 256-colour SGR sequences (`depth`). Colours are only sent when they change along a line,
/// every line ends with a reset, and the margin around the image is plain spaces on the default
/// background. Without colour each cell is one character whose ink follows the two pixels'
/// brightness (` .:-=+*#%@`), so a picture still reads on a plain terminal.
public struct HalfBlockRenderer: Sendable {
    public let depth: ColorDepth

    /// A renderer for terminals of `depth` colours.
    public init(depth: ColorDepth = .trueColor) { self.depth = depth }

    /// The image as large as it fits in `columns` x `rows` cells, aspect ratio kept and centred;
    /// returns exactly `rows` strings, one per terminal row, without newlines.
    public func render(_ image: RGBImage, columns: Int, rows: Int) -> [String] {
        guard rows > 0 else { return [] }
        guard columns > 0 else { return Array(repeating: "", count: rows) }
        let (width, height) = ImageResampler.fit(
            width: image.width, height: image.height, intoWidth: columns, height: rows * 2
        )
        let scaled = width > 0 ? ImageResampler.resize(image, width: width, height: height) : nil
        let left = (columns - width) / 2
        // Start the image on an even pixel row so no cell has margin above and image below;
        // only the bottom row can then be half margin, drawn as "▀" on the default background.
        let top = (rows * 2 - height) / 2 & ~1

        if depth == .plain {
            return (0..<rows).map { row in
                String((0..<columns).map { column -> Character in
                    let x = column - left
                    let pixels = [row * 2 - top, row * 2 + 1 - top].compactMap { y in scaled.flatMap { pixel(of: $0, x: x, y: y) } }
                    guard !pixels.isEmpty else { return " " }
                    let light = pixels.map { 299 * Int($0.red) + 587 * Int($0.green) + 114 * Int($0.blue) }.reduce(0, +) / pixels.count / 1000
                    // Dark pixels get heavy ink: a light terminal background is the usual paper.
                    let shades = ColorDepth.shades
                    return shades[min(shades.count - 1, (255 - light) * shades.count / 256)]
                })
            }
        }
        return (0..<rows).map { row in
            var line = Line(depth: depth)
            for column in 0..<columns {
                let x = column - left
                let upper = scaled.flatMap { pixel(of: $0, x: x, y: row * 2 - top) }
                let lower = scaled.flatMap { pixel(of: $0, x: x, y: row * 2 + 1 - top) }
                switch (upper, lower) {
                case (nil, nil):
                    line.setBackground(nil)
                    line.append(" ")
                case (let upper?, _):
                    line.setForeground(upper)
                    line.setBackground(lower)
                    line.append("▀")
                case (nil, let lower?):
                    line.setForeground(lower)
                    line.setBackground(nil)
                    line.append("▄")
                }
            }
            line.append(Line.reset)
            return line.text
        }
    }

    private func pixel(of image: RGBImage, x: Int, y: Int) -> RGBImage.Color? {
        guard x >= 0, x < image.width, y >= 0, y < image.height else { return nil }
        return image[x, y]
    }
}

/// One terminal row being built, remembering the colours in effect so none is sent twice.
private struct Line {
    static let reset = "\u{1B}[0m"

    let depth: ColorDepth
    private(set) var text = ""
    private var foreground: RGBImage.Color?
    private var background: RGBImage.Color?

    init(depth: ColorDepth) { self.depth = depth }

    /// The SGR parameters selecting `color` at this depth, after `38;` (foreground) or `48;`.
    private func code(_ color: RGBImage.Color) -> String {
        depth == .palette256
            ? "5;\(ColorDepth.paletteIndex(red: color.red, green: color.green, blue: color.blue))"
            : "2;\(color.red);\(color.green);\(color.blue)"
    }

    mutating func append(_ string: String) { text += string }

    mutating func setForeground(_ color: RGBImage.Color) {
        guard color != foreground else { return }
        foreground = color
        text += "\u{1B}[38;\(code(color))m"
    }

    /// nil is the terminal's default background.
    mutating func setBackground(_ color: RGBImage.Color?) {
        guard color != background else { return }
        background = color
        if let color {
            text += "\u{1B}[48;\(code(color))m"
        } else {
            text += "\u{1B}[49m"
        }
    }
}
