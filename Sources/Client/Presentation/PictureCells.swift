import Imaging
import TerminalUI

/// A picture drawn into a cell grid with "▀" half blocks: the upper pixel is the cell's
/// foreground, the lower its background, two pixels per cell. On a terminal without colour each
/// cell is a shade character whose ink follows the two pixels' brightness.
///
/// The one half-block renderer: the app (snaps, thumbnails, the Camera tile), `view`, `samples
/// show`, feed pictures and `post --camera` all draw half blocks here, and a `ScreenWriter`
/// puts the cells on the terminal (or `ScreenWriter.lines` on standard output), so one picture
/// gives the same cells everywhere. A picture's odd last pixel row is a cell whose upper half
/// is the picture and lower half the terminal's background.
///
/// Scaling is the costly part, so a picture keeps its last scaled copy per box size: redrawing
/// a grid of thumbnails (every key press, every scroll) scales nothing again. That copy is a
/// cache, not state: what is drawn depends on the picture and the box alone.
package final class PictureCells {
    let image: RGBImage
    private var scaled: (columns: Int, rows: Int, image: RGBImage)?

    package init(_ image: RGBImage) { self.image = image }

    /// Draws the picture as large as it fits in `area`, aspect ratio kept and centred.
    package func draw(into grid: inout CellGrid, area: Rect, depth: ColorDepth) {
        guard area.width > 0, area.height > 0, image.width > 0, image.height > 0 else { return }
        let fitted = scaledImage(columns: area.width, rows: area.height)
        let left = area.x + (area.width - fitted.width) / 2
        let top = area.y + (area.height - (fitted.height + 1) / 2) / 2
        for row in 0..<(fitted.height + 1) / 2 {
            for column in 0..<fitted.width {
                let upper = fitted[column, row * 2]
                let lower = row * 2 + 1 < fitted.height ? fitted[column, row * 2 + 1] : nil
                grid.set(Self.cell(upper, lower, depth: depth), column: left + column, row: top + row)
            }
        }
    }

    /// Scales the picture now for a box of `columns` x `rows` cells, so that drawing it there
    /// scales nothing: a live camera's frame is made ready off the screen's thread.
    func prepare(columns: Int, rows: Int) {
        guard columns > 0, rows > 0 else { return }
        _ = scaledImage(columns: columns, rows: rows)
    }

    private func scaledImage(columns: Int, rows: Int) -> RGBImage {
        if let scaled, scaled.columns == columns, scaled.rows == rows { return scaled.image }
        let (width, height) = ImageResampler.fit(width: image.width, height: image.height, intoWidth: columns, height: rows * 2)
        let result = ImageResampler.resize(image, width: max(1, width), height: max(1, height))
        scaled = (columns, rows, result)
        return result
    }

    private static func cell(_ upper: RGBImage.Color, _ lower: RGBImage.Color?, depth: ColorDepth) -> Cell {
        guard depth != .plain else {
            let pixels = [upper] + (lower.map { [$0] } ?? [])
            let light = pixels.map { 299 * Int($0.red) + 587 * Int($0.green) + 114 * Int($0.blue) }.reduce(0, +) / pixels.count / 1000
            let shades = ColorDepth.shades
            return Cell(shades[min(shades.count - 1, (255 - light) * shades.count / 256)])
        }
        let background: Color = lower.map { .rgb($0.red, $0.green, $0.blue) } ?? .standard
        return Cell("▀", style: Style(foreground: .rgb(upper.red, upper.green, upper.blue), background: background))
    }
}

/// A rectangle of cells.
package struct Rect: Equatable {
    var x: Int, y: Int, width: Int, height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    func contains(column: Int, row: Int) -> Bool {
        column >= x && column < x + width && row >= y && row < y + height
    }
}

extension PictureCells {
    /// The picture for a graphics protocol, placed in `area` (nil for half blocks, which are
    /// cells), sized with the terminal's real cells (`PicturePlacement`): it fits the area and
    /// keeps its aspect ratio, and a 12-megapixel photo does not travel whole.
    func escapes(_ pictures: PictureProtocol, area: Rect, on terminal: PictureTerminal) -> [UInt8]? {
        guard pictures != .halfblock else { return nil }
        let place = PicturePlacement.place(
            width: image.width, height: image.height, in: area, cell: terminal.cell,
            pictures: pictures, sixelLimit: terminal.sixelLimit)
        let sized =
            place.width == image.width && place.height == image.height
            ? image : ImageResampler.resize(image, width: place.width, height: place.height)
        switch pictures {
        case .halfblock:
            return nil
        case .kitty, .iterm:
            guard let png = try? ImageCodec.encodePNG(sized) else { return nil }
            return pictures == .kitty
                ? PictureEscapes.kitty(png: png, column: place.column, row: place.row, columns: place.columns, rows: place.rows)
                : PictureEscapes.iterm(file: png, column: place.column, row: place.row, columns: place.columns, rows: place.rows)
        case .sixel:
            // Sixel scrolling mode (DECSDM reset): drawn at the cursor, which the fit keeps clear
            // of the bottom, so nothing scrolls.
            let indexed = sized.quantized(colors: terminal.colorRegisters)
            return Array("\u{1B}[?80l".utf8)
                + PictureEscapes.sixel(
                    width: indexed.width, height: indexed.height, palette: indexed.palette.map { ($0.red, $0.green, $0.blue) },
                    indices: indexed.indices, column: place.column, row: place.row)
        }
    }
}
