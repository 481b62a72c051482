import Foundation
import Imaging
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `post --camera` in real terminals under Xvfb: the live preview is drawn with the terminal's
/// picture protocol (sixel in xterm as a VT340, kitty's in kitty), sized from the real cells
/// like a snap, and the picture taken is posted.
@Suite("The camera's preview in real terminals", .serialized)
struct CameraX11Tests {
    static let columns = 80, rows = 24
    static let magenta = RGBImage.Color(red: 255, green: 0, blue: 255)

    /// `snapshare post --camera` for a new student, in `emulator`, reading `source`.
    static func post(
        in emulator: X11Terminal.Emulator, server: TestServer, source: String, pictures: String? = nil,
        home: TemporaryDirectory
    ) throws -> X11Terminal {
        let (session, _) = try server.session(home: home)
        _ = try session.register(
            username: "cam\(UInt32.random(in: 1000...99999))", password: "correct horse battery",
            classCode: server.configuration.classCode ?? "")
        return try X11Terminal(
            emulator, command: Subprocess.executable("snapshare"),
            arguments: [
                "--server", "127.0.0.1:\(server.port)", "--ca", server.caPath, "post", "--camera",
                "--camera-device", source, "--feed", "Memes",
            ] + (pictures.map { ["--pictures", $0] } ?? []),
            environment: ["SNAPSHARE_HOME": home.path], columns: columns, rows: rows,
            font: .outline(family: "Monospace", points: 11))
    }

    /// How often two neighbouring pixels differ, of every pair side by side: a frame in real
    /// pixels (dithered sixels, a kitty PNG) changes from pixel to pixel, the same frame in half
    /// blocks only at cell edges (one colour per half cell).
    static func detail(_ shot: RGBImage) -> Double {
        var differing = 0
        for y in 0..<shot.height {
            for x in 1..<shot.width where shot[x, y] != shot[x - 1, y] { differing += 1 }
        }
        return Double(differing) / Double(shot.height * (shot.width - 1))
    }

    /// The moving preview once `shown` holds of it, then frozen with Space (a moving screen never
    /// settles) and read again.
    static func taken(in terminal: X11Terminal, until shown: (RGBImage) -> Bool) throws -> RGBImage {
        _ = try Polling.first(timeout: 20, every: 0.2) { shown(try terminal.screenshot()) ? true : nil }
        try terminal.press("space")
        return try terminal.wait(timeout: 20, until: shown)
    }

    /// A plain magenta camera: its preview lies above the caption with the frame's 4:3 aspect and
    /// fills its area; Space and Enter post it, exit 0. Then moving noise
    /// shows in real pixels, with far more detail than its half-block drawing.
    static func run(_ emulator: X11Terminal.Emulator, inset: Int) throws {
        let server = try TestServer()
        let watcher = try server.registeredSession("watcher")
        let home = TemporaryDirectory("camera-x11")
        let terminal = try post(in: emulator, server: server, source: "lavfi:color=c=magenta:size=640x480:rate=15", home: home)
        let shot = try terminal.wait(timeout: 20) { $0.count { $0.isNear(magenta) } > 20_000 }
        let cellHeight = (shot.height - 2 * inset) / rows
        let cellWidth = (shot.width - 2 * inset) / columns
        let picture = try #require(shot.boundingBox { $0.isNear(magenta) }, "no preview on the screen")
        let captionTop = inset + (rows - 1) * cellHeight
        #expect(
            shot.bounds.contains(picture) && picture.maxY <= captionTop, "the preview is \(picture), the caption starts at \(captionTop)")
        #expect(abs(Double(picture.width) / Double(picture.height) / (4.0 / 3.0) - 1) <= 0.03, "aspect of \(picture)")
        #expect(
            picture.height >= (rows - 2) * cellHeight || picture.width >= (columns - 2) * cellWidth,
            "the preview \(picture) does not fill its area")
        try terminal.press("space")
        try terminal.press("Return")
        _ = try terminal.wait(timeout: 20) { _ in terminal.exitStatus != nil }
        #expect(terminal.exitStatus == 0, "exit \(String(describing: terminal.exitStatus))")
        let posted = try watcher.snaps(feed: "Memes").snaps
        #expect(posted.count == 1 && posted.first.map { ($0.width, $0.height) == (640, 480) } == true, "\(posted)")

        // Grey noise, new every frame: detail in every pixel, which half blocks average away.
        let moving = "lavfi:nullsrc=size=640x480:rate=15,geq=lum=random(1)*255:cb=128:cr=128"
        // Each student's state folder lives as long as its terminal.
        let blocksHome = TemporaryDirectory("camera-x11-blocks")
        let pixelsHome = TemporaryDirectory("camera-x11-pixels")
        let blocks = try post(in: emulator, server: server, source: moving, pictures: "halfblock", home: blocksHome)
        let inBlocks = try taken(in: blocks) { detail($0) > 0.02 }
        try blocks.press("Escape")
        _ = try blocks.wait(timeout: 20) { _ in blocks.exitStatus != nil }
        #expect(blocks.exitStatus == 11, "Esc cancels: exit \(String(describing: blocks.exitStatus))")
        let pixels = try post(in: emulator, server: server, source: moving, home: pixelsHome)
        let inPixels = try taken(in: pixels) { detail($0) > 2 * detail(inBlocks) }
        if let folder = X11Terminal.screenshotsDirectory {
            _ = try pixels.screenshot(savingTo: folder + "/camera-\(emulator == .kitty ? "kitty" : "xterm-sixel").png")
        }
        #expect(
            detail(inPixels) > 2 * detail(inBlocks),
            "neighbours differ \(detail(inPixels)) of the time through the protocol, \(detail(inBlocks)) in half blocks")
        try pixels.press("Escape")
        _ = try pixels.wait(timeout: 20) { _ in pixels.exitStatus != nil }
        #expect(pixels.exitStatus == 11)
        #expect(try watcher.snaps(feed: "Memes").snaps.count == 1, "a cancelled preview posted something")
    }

    @Test(
        "xterm as a VT340: the camera's preview in sixels, 4:3 above the caption, posted with Space and Enter",
        .enabled(
            if: X11Terminal.isUsable(.xterm(sixel: true)) && CameraTools.ffmpegIsInstalled,
            "needs Xvfb, xterm, xdotool, ImageMagick and ffmpeg"))
    func xtermSixel() throws {
        try Self.run(.xterm(sixel: true), inset: 2)
    }

    @Test(
        "xterm as a VT340 resized while the camera's preview shows: the sixels are drawn again to fill the new box",
        .enabled(
            if: X11Terminal.isUsable(.xterm(sixel: true)) && CameraTools.ffmpegIsInstalled,
            "needs Xvfb, xterm, xdotool, ImageMagick and ffmpeg"))
    func xtermSixelAfterAResize() throws {
        let server = try TestServer()
        let home = TemporaryDirectory("camera-x11-resize")
        let terminal = try Self.post(
            in: .xterm(sixel: true), server: server, source: "lavfi:color=c=magenta:size=640x480:rate=15",
            home: home)
        let before = try terminal.wait(timeout: 20) { $0.count { $0.isNear(Self.magenta) } > 20_000 }
        let cellHeight = (before.height - 4) / Self.rows
        let cellWidth = (before.width - 4) / Self.columns
        let first = try #require(before.boundingBox { $0.isNear(Self.magenta) })
        // Taller than the sixel limit xterm gave at 80x24, within its 1000 pixels a side.
        let (newColumns, newRows) = (90, 30)
        try terminal.resize(columns: newColumns, rows: newRows)
        let newBox = (newRows - 2) * cellHeight
        let after = try terminal.wait(timeout: 20) { (shot: RGBImage) -> Bool in
            let height = shot.boundingBox { $0.isNear(Self.magenta) }?.height ?? 0
            return shot.width >= newColumns * cellWidth && height >= newBox
        }
        let picture = try #require(after.boundingBox { $0.isNear(Self.magenta) })
        let captionTop = 2 + (newRows - 1) * cellHeight
        #expect(picture.height >= newBox && picture.height > first.height, "before the resize \(first), after it \(picture)")
        #expect(
            after.bounds.contains(picture) && picture.maxY <= captionTop,
            "the preview is \(picture), the caption starts at \(captionTop)")
        #expect(abs(Double(picture.width) / Double(picture.height) / (4.0 / 3.0) - 1) <= 0.03, "aspect of \(picture)")
        try terminal.press("Escape")
        _ = try terminal.wait(timeout: 20) { _ in terminal.exitStatus != nil }
        #expect(terminal.exitStatus == 11, "Esc cancels: exit \(String(describing: terminal.exitStatus))")
    }

    @Test(
        "kitty: the camera's preview through the kitty protocol, 4:3 above the caption, posted with Space and Enter",
        .enabled(
            if: X11Terminal.isUsable(.kitty) && CameraTools.ffmpegIsInstalled,
            "needs Xvfb, kitty on software OpenGL, xdotool, ImageMagick and ffmpeg"))
    func kitty() throws {
        try Self.run(.kitty, inset: 0)
    }
}
