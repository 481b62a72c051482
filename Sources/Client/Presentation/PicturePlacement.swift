import Imaging
import TerminalUI

/// Where a picture sent through a graphics protocol goes, and at how many pixels: fitted into a
/// box of cells with its aspect ratio kept, measured with the terminal's real cell size.
///
/// - kitty and iTerm2 scale the picture into the cells they are given, so the cells are chosen
///   from the picture's aspect (`columns` x `rows` in pixels is the fitted size, to half a cell),
///   and the picture travels at no more pixels than it is shown with (never enlarged: the
///   terminal does that).
/// - A sixel is drawn pixel for pixel, so it is resized to exactly what is shown. Its height is
///   a whole number of six-pixel bands and never more than the box, nor than the terminal's sixel
///   limit, so the terminal has no reason to scroll.
struct PicturePlacement: Equatable {
    /// The cell rectangle the picture covers, 0-based, inside the box.
    var column: Int, row: Int, columns: Int, rows: Int
    /// The picture's size as sent, in pixels.
    var width: Int, height: Int

    /// Where a `width` x `height` picture goes in `area`, with cells of `cell` pixels.
    static func place(
        width imageWidth: Int, height imageHeight: Int, in area: Rect, cell: PixelSize,
        pictures: PictureProtocol, sixelLimit: PixelSize? = nil
    ) -> PicturePlacement {
        var boxWidth = max(1, area.width * cell.width)
        var boxHeight = max(1, area.height * cell.height)
        if pictures == .sixel {
            if let sixelLimit, sixelLimit.width > 0, sixelLimit.height > 0 {
                boxWidth = min(boxWidth, sixelLimit.width)
                boxHeight = min(boxHeight, sixelLimit.height)
            }
            boxHeight = max(6, boxHeight - boxHeight % 6)
        }
        let fitted = ImageResampler.fit(width: imageWidth, height: imageHeight, intoWidth: boxWidth, height: boxHeight)
        var shownWidth = max(1, fitted.width)
        var shownHeight = max(1, fitted.height)
        let columns: Int
        let rows: Int
        if pictures == .sixel {
            // Whole bands: the height rounded down to six pixels, the width with it.
            let banded = max(6, shownHeight - shownHeight % 6)
            if banded != shownHeight {
                shownWidth = max(1, min(shownWidth, (imageWidth * banded * 2 + imageHeight) / (imageHeight * 2)))
                shownHeight = banded
            }
            columns = min(area.width, (shownWidth + cell.width - 1) / cell.width)
            rows = min(area.height, (shownHeight + cell.height - 1) / cell.height)
        } else {
            columns = max(1, min(area.width, (shownWidth * 2 + cell.width) / (cell.width * 2)))
            rows = max(1, min(area.height, (shownHeight * 2 + cell.height) / (cell.height * 2)))
            if imageWidth <= shownWidth && imageHeight <= shownHeight { (shownWidth, shownHeight) = (imageWidth, imageHeight) }
        }
        return PicturePlacement(
            column: area.x + (area.width - columns) / 2, row: area.y + (area.height - rows) / 2,
            columns: columns, rows: rows, width: shownWidth, height: shownHeight)
    }
}

/// What a protocol picture needs to know of the terminal it goes to.
struct PictureTerminal: Equatable {
    /// One cell in pixels.
    var cell: PixelSize
    /// Sixel colour registers to use (at most 256).
    var colorRegisters: Int
    /// The largest sixel the terminal takes, when it said.
    var sixelLimit: PixelSize?

    /// Cells of 10x20 pixels, a common font's, where the terminal does not say.
    static let assumedCell = PixelSize(width: 10, height: 20)

    /// From what the terminal answered, for a screen of `columns` x `rows` cells.
    init(_ facts: TerminalFacts, columns: Int, rows: Int) {
        cell = facts.cellSize(columns: columns, rows: rows) ?? Self.assumedCell
        colorRegisters = min(256, max(2, facts.colorRegisters ?? 256))
        sixelLimit = facts.sixelLimit
    }
}
