import Foundation
import TerminalUI
import TestSupport
import Testing

@testable import Client
@testable import Imaging

/// One picture path: the same frame on the same screen gives the same cells in the app (a snap
/// full screen), in `view` / `samples show` / a feed's or album's picture on a terminal, in
/// `post --camera`'s preview (a frame drawn whole, then the next one sent as a difference) and in
/// `view` printed to a pipe; what a terminal shows after each path's bytes is compared, cell by
/// cell (the caption row under the picture is each program's own). Odd pixel heights, wide,
/// tall and tiny frames, and a 640x480 camera frame are among them.
@Suite("One picture path", .serialized)
struct PicturePathTests {
    /// A frame with detail everywhere, so any shift of a row or a column shows.
    static func frame(width: Int, height: Int, seed: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height, color: .black)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGBImage.Color(
                    red: UInt8((x * 37 + seed) % 256), green: UInt8((y * 53 + seed * 3) % 256),
                    blue: UInt8((x * y + seed) % 256))
            }
        }
        return image
    }

    /// Frame sizes (pixels) and screens (cells); screens are at least the app's 80x24.
    static let cases: [(width: Int, height: Int, columns: Int, rows: Int)] = [
        (640, 480, 80, 24), (33, 17, 80, 24), (101, 9, 81, 25), (9, 101, 90, 24), (1, 1, 80, 24), (1600, 901, 120, 41), (333, 250, 97, 31),
    ]

    /// The app with a snap's picture open full screen, drawn in half blocks.
    static func app(_ image: RGBImage, home: TemporaryDirectory, depth: ColorDepth) -> AppModel {
        let backend = AppBackend(
            connect: { () throws(ClientError) -> SnapshareSession in
                throw ClientError(.local, "no server in this test")
            }, inline: true, wake: {})
        let app = AppModel(
            backend: backend, environment: [:], state: ClientState(directory: home.path), depth: depth, colour: false,
            makeScreens: AppRunner.screens)
        app.pictures = .halfblock
        app.overlay = .picture(PictureCells(image), caption: "a snap · any key closes")
        return app
    }

    /// The picture's rows (all but the caption's) of what a terminal shows after `bytes`.
    static func pictureRows(_ bytes: [UInt8], columns: Int, rows: Int) -> [[Cell]] {
        Array(TerminalScreenModel.after(bytes, columns: columns, rows: rows).cells.prefix(rows - 1))
    }

    @Test(
        "a frame gives the same cells in the app, in view, in post --camera and in view's text, whatever its size and the screen's",
        arguments: [ColorDepth.trueColor, .palette256, .plain])
    func sameCellsEverywhere(depth: ColorDepth) throws {
        let home = TemporaryDirectory("picture-path")
        for (index, size) in Self.cases.enumerated() {
            let image = Self.frame(width: size.width, height: size.height, seed: index)
            let (columns, rows) = (size.columns, size.rows)
            let label = "\(size.width)x\(size.height) on \(columns)x\(rows) in \(depth)"

            // The app: its grid, and its grid through the app's screen writer.
            let app = Self.app(image, home: home, depth: depth)
            let appGrid = app.render(columns: columns, rows: rows)
            let expected = Array(TerminalScreenModel.shown(appGrid, depth: depth).prefix(rows - 1))
            #expect(expected.joined().contains { $0.character != " " }, "the app drew nothing: \(label)")
            var appWriter = ScreenWriter(depth: depth)
            #expect(Self.pictureRows(appWriter.frame(appGrid), columns: columns, rows: rows) == expected, "the app's bytes: \(label)")

            // view, samples show, a feed's picture: the full-screen view's screen in half blocks.
            let view = FullScreenImageView(image: image, depth: depth, caption: "Snap 1 · any key closes")
            guard case .cells(let viewGrid) = view.screen(columns: columns, rows: rows, pictures: .halfblock, facts: TerminalFacts()) else {
                Issue.record("view drew no cells: \(label)")
                continue
            }
            var viewWriter = ScreenWriter(depth: depth)
            #expect(Self.pictureRows(viewWriter.frame(viewGrid), columns: columns, rows: rows) == expected, "view: \(label)")

            // post --camera: an earlier frame drawn whole, then this one sent as the difference.
            let device = CameraDevice.filter(spec: "testsrc2")
            func preview(_ frame: RGBImage) -> CellGrid? {
                let screen = CameraPreview.screen(
                    frame, taken: false, device: device, columns: columns, rows: rows, on: Terminal(),
                    depth: depth, pictures: .halfblock, facts: TerminalFacts())
                guard case .cells(let grid)? = screen else { return nil }
                return grid
            }
            let earlier = try #require(preview(Self.frame(width: size.width, height: size.height, seed: index + 100)))
            let current = try #require(preview(image))
            var previewWriter = ScreenWriter(depth: depth)
            var screen = TerminalScreenModel(columns: columns, rows: rows)
            screen.apply(previewWriter.frame(earlier))
            screen.apply(previewWriter.frame(current))
            #expect(Array(screen.cells.prefix(rows - 1)) == expected, "post --camera: \(label)")

            // view into a pipe: the picture's rows as lines of text.
            let lines = ImageDisplay.lines(image, columns: columns, rows: rows - 1, depth: depth)
            let text = Array(lines.joined(separator: "\n").utf8)
            #expect(Self.pictureRows(text, columns: columns, rows: rows) == expected, "view's text: \(label)")
        }
    }
}
