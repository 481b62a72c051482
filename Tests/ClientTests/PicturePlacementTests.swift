import TerminalUI
import Testing

@testable import Client

@Suite("Sizing protocol pictures with the terminal's real cells")
struct PicturePlacementTests {
    static let cells = [
        PixelSize(width: 6, height: 13), PixelSize(width: 8, height: 17), PixelSize(width: 8, height: 19),
        PixelSize(width: 10, height: 20),
    ]
    /// Portrait, landscape, square, tiny and huge pictures.
    static let pictures = [(1080, 1920), (1600, 900), (1600, 1600), (256, 170), (12, 8), (3, 40), (12_000, 9_000)]
    /// The area above the caption of an 80x24 screen, and of a 200x60 one.
    static let areas = [Rect(x: 0, y: 0, width: 80, height: 23), Rect(x: 0, y: 0, width: 200, height: 59)]

    static func aspectError(_ width: Int, _ height: Int, _ shownWidth: Int, _ shownHeight: Int) -> Double {
        abs(Double(shownWidth) / Double(shownHeight) / (Double(width) / Double(height)) - 1)
    }

    @Test("sixel: drawn pixel for pixel inside the area, in whole bands, the aspect kept, never enough to scroll")
    func sixel() {
        for cell in Self.cells {
            for area in Self.areas {
                for (width, height) in Self.pictures {
                    let place = PicturePlacement.place(width: width, height: height, in: area, cell: cell, pictures: .sixel)
                    let label = "\(width)x\(height) with \(cell) cells in \(area.width)x\(area.height)"
                    #expect(place.width <= area.width * cell.width && place.height <= area.height * cell.height, "\(label)")
                    #expect(place.height % 6 == 0, "\(label): whole bands")
                    #expect(place.row >= area.y && place.column >= area.x, "\(label)")
                    #expect(
                        (place.row + place.rows) <= area.y + area.height && place.column + place.columns <= area.x + area.width, "\(label)")
                    // The sixel's pixels from its top left cell stay inside the rows it was given.
                    #expect(place.row * cell.height + place.height <= (area.y + area.height) * cell.height, "\(label)")
                    if min(place.width, place.height) >= 30 {
                        #expect(Self.aspectError(width, height, place.width, place.height) < 0.03, "\(label): \(place)")
                    }
                }
            }
        }
    }

    @Test("sixel: the terminal's limit caps the picture, and the fit fills one side of the box")
    func sixelLimitAndFill() {
        let area = Rect(x: 0, y: 0, width: 200, height: 59)
        let cell = PixelSize(width: 8, height: 17)
        let capped = PicturePlacement.place(
            width: 1600, height: 1600, in: area, cell: cell, pictures: .sixel,
            sixelLimit: PixelSize(width: 1000, height: 600))
        #expect(capped.height <= 600 && capped.width <= 1000 && capped.width == capped.height)
        // The case: xterm at 8x17, 80x24 — a square photo 390 pixels high, not 780.
        let square = PicturePlacement.place(
            width: 1600, height: 1600, in: Rect(x: 0, y: 0, width: 80, height: 23), cell: cell, pictures: .sixel)
        #expect(square.height == 390 && square.width == 390)
        #expect(square.column == (80 - square.columns) / 2)
    }

    @Test("kitty and iTerm2: cells chosen from the aspect, so the terminal's stretch keeps it; never sent larger than the source")
    func kittyCells() {
        for pictures in [PictureProtocol.kitty, .iterm] {
            for cell in Self.cells {
                for area in Self.areas {
                    for (width, height) in Self.pictures {
                        let place = PicturePlacement.place(width: width, height: height, in: area, cell: cell, pictures: pictures)
                        let label = "\(pictures) \(width)x\(height) with \(cell) cells in \(area.width)x\(area.height)"
                        #expect(
                            place.columns >= 1 && place.rows >= 1 && place.columns <= area.width && place.rows <= area.height, "\(label)")
                        #expect(place.width <= max(width, 1) && place.height <= max(height, 1), "\(label): never enlarged")
                        // What the terminal shows is the cell box; its aspect is within half a cell of the picture's.
                        let shownWidth = place.columns * cell.width
                        let shownHeight = place.rows * cell.height
                        if place.columns >= 20 && place.rows >= 10 {
                            #expect(Self.aspectError(width, height, shownWidth, shownHeight) < 0.03, "\(label): \(place)")
                        }
                    }
                }
            }
        }
        // The case: the 256x170 cat in kitty at 8x19 was 19% too narrow with 10x20 cells assumed.
        let cat = PicturePlacement.place(
            width: 256, height: 170, in: Rect(x: 0, y: 0, width: 80, height: 23), cell: PixelSize(width: 8, height: 19),
            pictures: .kitty)
        #expect(cat.width == 256 && cat.height == 170, "small enough to travel as it is")
        #expect(Self.aspectError(256, 170, cat.columns * 8, cat.rows * 19) < 0.03)
    }
}
