import Foundation
import TerminalUI
import Testing

@testable import Client
@testable import Imaging

@Suite struct TerminalTests {
    @Test func aPipeIsNotATerminalAndHasNoSize() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        #expect(!Terminal.isTerminal(fds[0]))
        #expect(Terminal.size(of: fds[1]) == nil)
    }

    @Test func withoutATerminalTheSizeComesFromTheEnvironmentOrIs80x24() throws {
        let fd = open("/dev/null", O_WRONLY)
        defer { close(fd) }
        let fromEnvironment = Terminal.sizeOrDefault(of: fd) { ["COLUMNS": "132", "LINES": "43"][$0] }
        #expect(fromEnvironment == (132, 43))
        let nonsense = Terminal.sizeOrDefault(of: fd) { ["COLUMNS": "wide", "LINES": "-4"][$0] }
        #expect(nonsense == (80, 24))
        let nothing = Terminal.sizeOrDefault(of: fd) { _ in nil }
        #expect(nothing == (80, 24))
    }

    @Test func writeDeliversEveryByte() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("terminal-\(UUID()).out").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        defer { unlink(path) }
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try Terminal(input: 0, output: fd).write(bytes)
        close(fd)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
    }

    @Test func writingToAnInvalidDescriptorThrows() {
        // -1 rather than a closed descriptor: tests run in parallel and could reuse its number.
        #expect(throws: Terminal.Failure(operation: "write", code: EBADF)) { try Terminal(input: 0, output: -1).write("x") }
    }

    @Test func rawModeNeedsATerminal() throws {
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        #expect(throws: Terminal.Failure.self) { try Terminal(input: fd, output: fd).enableRawMode() }
    }

    @Test func theFullScreenViewRefusesToRunWithoutATerminal() throws {
        let fd = open("/dev/null", O_RDWR)
        defer { close(fd) }
        let view = FullScreenImageView(image: RGBImage(width: 2, height: 2, color: .white), terminal: Terminal(input: fd, output: fd))
        #expect(throws: Terminal.Failure.self) { try view.show() }
    }

    @Test func aFullScreenFrameDrawsEveryRowAndNothingElse() {
        // 4x4 into 3x2 cells (3x4 pixels) is 3x3: the last pixel row sits on the default background.
        let view = FullScreenImageView(image: RGBImage(width: 4, height: 4, color: .white))
        var writer = ScreenWriter(depth: .trueColor)
        let frame = writer.frame(view.grid(columns: 3, rows: 2))
        let white = Color.rgb(255, 255, 255)
        let shown = TerminalScreenModel.after(frame, columns: 3, rows: 2).cells
        #expect(shown[0] == Array(repeating: Cell("▀", style: Style(foreground: white, background: white)), count: 3))
        #expect(shown[1] == Array(repeating: Cell("▀", style: Style(foreground: white)), count: 3))
        #expect(!String(decoding: frame, as: UTF8.self).contains("\n"), "every row is positioned, nothing scrolls")
    }
}

@Suite struct FullScreenCaptionTests {
    @Test func theCaptionSitsCentredOnTheLastRowUnderThePicture() {
        let image = RGBImage(width: 4, height: 4, color: RGBImage.Color(red: 10, green: 20, blue: 30))
        let caption = "Snap 6 from alice in Memes, 2m ago · any key closes"
        let grid = FullScreenImageView(image: image, caption: caption).grid(columns: 60, rows: 10)
        #expect(
            grid.text(ofRow: 9) == String(repeating: " ", count: (60 - caption.count) / 2) + caption
                + String(repeating: " ", count: 60 - caption.count - (60 - caption.count) / 2))
        #expect((0..<60).allSatisfy { grid[$0, 9].style == .plain }, "the picture stops above it")
        #expect((0..<60).contains { grid[$0, 8].character == "▀" })
    }

    @Test func aCaptionWiderThanTheTerminalIsCut() {
        let grid = FullScreenImageView(image: RGBImage(width: 2, height: 2, color: .black), caption: String(repeating: "x", count: 100))
            .grid(columns: 20, rows: 5)
        #expect(grid.text(ofRow: 4) == String(repeating: "x", count: 19) + "…")
    }
}
