import Foundation
import Imaging
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The window harness itself, before the app's picture tests build on it: a known picture printed
/// in a real terminal under Xvfb is found in the screenshot at its exact size, keys typed reach
/// the program, and nothing is left running afterwards.
@Suite("Real terminals under Xvfb", .serialized)
struct X11TerminalTests {
    static let red = RGBImage.Color(red: 255, green: 0, blue: 0)

    /// A solid red 120x60 sixel: colour register 1 set to 100% red, then ten bands of six rows.
    static let redSixel = "\u{1B}P0;1;0q\"1;1;120;60#1;2;100;0;0#1" + String(repeating: "!120~-", count: 10) + "\u{1B}\\"

    /// A solid red 120x60 PNG as one kitty graphics command, shown at the cursor with no reply.
    static func redKittyPicture() throws -> String {
        let png = try ImageCodec.encodePNG(RGBImage(width: 120, height: 60, color: red))
        return "\u{1B}_Ga=T,f=100,q=2;" + Data(png).base64EncodedString() + "\u{1B}\\"
    }

    /// Prints a line of text, the picture in `escapes`, then another line in `emulator`, and checks the screenshot:
    /// exactly 120x60 red pixels, all of them red, with text above and below.
    static func checkRedPicture(_ escapes: String, in emulator: X11Terminal.Emulator, font: X11Terminal.Font, screenshot name: String)
        throws
    {
        let folder = TemporaryDirectory("x11-picture")
        let file = try folder.write("a picture below\n" + escapes + "\nand text after it\n", to: "screen")
        let terminal = try X11Terminal(emulator, command: "/bin/cat", arguments: [file], columns: 60, rows: 12, font: font)
        let shot = try terminal.wait { screen in screen.count { $0.isNear(red) } >= 120 * 60 }
        if let keep = X11Terminal.screenshotsDirectory { _ = try terminal.screenshot(savingTo: keep + "/" + name) }

        let background = shot.backgroundColor()
        let picture = try #require(shot.boundingBox { $0.isNear(red) }, "no red picture on the screen")
        #expect(picture.width == 120 && picture.height == 60, "the picture is \(picture)")
        #expect(shot.count(in: picture) { $0.isNear(red) } == 120 * 60, "the picture has holes")
        let above = PixelBox(x: 0, y: 0, width: shot.width, height: picture.y)
        let below = PixelBox(x: 0, y: picture.maxY, width: shot.width, height: shot.height - picture.maxY)
        let text: (RGBImage.Color) -> Bool = { !$0.isNear(background) && !$0.isNear(red) }
        #expect(shot.boundingBox(in: above, where: text) != nil, "no text line above the picture")
        #expect(shot.boundingBox(in: below, where: text) != nil, "no text line below the picture")
    }

    @Test(
        "xterm as a VT340 draws a 120 by 60 sixel as exactly 120 by 60 red pixels between two lines of text",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: true)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func xtermSixel() throws {
        try Self.checkRedPicture(
            Self.redSixel, in: .xterm(sixel: true), font: .outline(family: "Monospace", points: 11),
            screenshot: "xterm-sixel.png")
    }

    @Test(
        "kitty draws a 120 by 60 PNG sent with the kitty graphics protocol as exactly 120 by 60 red pixels",
        .enabled(if: X11Terminal.isUsable(.kitty), "needs Xvfb, kitty starting on software OpenGL, xdotool and ImageMagick"))
    func kittyPicture() throws {
        try Self.checkRedPicture(try Self.redKittyPicture(), in: .kitty, font: .standard, screenshot: "kitty-picture.png")
    }

    @Test(
        "keys typed and pressed in xterm reach the program inside, as the bytes a keyboard sends",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: false)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func keysReachTheProgram() throws {
        let folder = TemporaryDirectory("x11-keys")
        // Keys typed before raw mode would meet the line discipline (Return turned into a newline).
        let terminal = try X11Terminal(
            .xterm(sixel: false), command: "/bin/sh",
            arguments: [
                "-c", "stty raw -echo && echo > '\(folder.file("raw"))' && dd bs=1 count=8 of='\(folder.file("keys"))' 2>/dev/null",
            ])
        try #require(Self.file(folder.file("raw")) != nil, "the program never switched to raw mode")
        try terminal.type("ab é")
        try terminal.press("ctrl+a", "Return", "Escape")
        #expect(try eventually("the program to exit", timeout: 10, every: 0.05) { terminal.exitStatus } == 0)
        let keys = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.file("keys"))))
        #expect(keys == Array("ab é".utf8) + [0x01, 0x0D, 0x1B], "\(keys)")
    }

    @Test(
        "a released terminal leaves neither the program inside nor the X server running",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: false)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func cleansUp() throws {
        let folder = TemporaryDirectory("x11-cleanup")
        var terminal: X11Terminal? = try X11Terminal(
            .xterm(sixel: false), command: "/bin/sh",
            arguments: ["-c", "echo $$ > '\(folder.file("pid"))'; sleep 600; true"])
        let program = try #require(Self.file(folder.file("pid")).flatMap { pid_t($0) }, "the program never started")
        let socket = "/tmp/.X11-unix/X" + (terminal?.display.dropFirst() ?? "")
        #expect(FileManager.default.fileExists(atPath: socket))
        terminal = nil
        #expect(!Self.isRunning(program), "the program inside outlived its terminal")
        #expect(!FileManager.default.fileExists(atPath: socket), "the X server's socket is still there")
    }

    /// The text of the file at `path` (trimmed) once the program inside has written it, up to a
    /// newline; nil after 10 seconds. A file appearing announces nothing: it is looked for.
    static func file(_ path: String) -> String? {
        Polling.first(timeout: 10, every: 0.05) {
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap {
                $0.hasSuffix("\n") ? $0.trimmingCharacters(in: .whitespacesAndNewlines) : nil
            }
        }
    }

    /// Whether `pid` is still a live process after up to 2 seconds: a killed one may stay a
    /// zombie until something reaps it, and only its parent hears when it ends.
    static func isRunning(_ pid: pid_t) -> Bool {
        let ended = Polling.first(timeout: 2, every: 0.05) { () -> Bool? in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // The state follows the command name in parentheses: "1234 (sleep) Z ...".
            return stat.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).first == "Z" ? true : nil
        }
        return ended == nil
    }
}
