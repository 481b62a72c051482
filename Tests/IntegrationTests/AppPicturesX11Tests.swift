import Client
import Foundation
import Imaging
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The app in real terminal emulators under Xvfb, against a real server: snaps opened with the
/// terminal's own graphics (sixel in xterm as a VT340, the kitty protocol in kitty) are measured in
/// screenshots — wholly inside the window and above the caption, the source's aspect ratio kept,
/// the caption on the last row — and leave a clean screen once closed. A protocol forced on a
/// terminal that lacks it is drawn in half blocks, never as nothing.
@Suite("Pictures in real terminals", .serialized)
struct AppPicturesX11Tests {
    /// Each snap is a photo with a thick frame of one pure colour, so its extent on the screen is
    /// the bounding box of that colour.
    struct FramedSnap {
        let width: Int, height: Int
        let frame: RGBImage.Color
        let sample: Int

        var aspect: Double { Double(width) / Double(height) }

        func png() throws -> [UInt8] {
            let photo = try ImageCodec.decode(TestImages.sample(sample))
            var image = ImageResampler.resize(photo, width: width, height: height)
            let thickness = max(12, min(width, height) / 12)
            for y in 0..<height {
                for x in 0..<width where x < thickness || y < thickness || x >= width - thickness || y >= height - thickness {
                    image[x, y] = frame
                }
            }
            return try ImageCodec.encodePNG(image)
        }
    }

    static let magenta = RGBImage.Color(red: 255, green: 0, blue: 255)
    static let green = RGBImage.Color(red: 0, green: 255, blue: 0)
    static let square = FramedSnap(width: 600, height: 600, frame: magenta, sample: 1)
    static let wide = FramedSnap(width: 840, height: 360, frame: green, sample: 4)

    static let columns = 80, rows = 24
    /// The unread rows' colours: palette 25 on light backgrounds, 45 on dark ones.
    static let unreadOnLight = RGBImage.Color(red: 0, green: 95, blue: 175)
    static let unreadOnDark = RGBImage.Color(red: 0, green: 215, blue: 255)

    /// A class where ann posted the square snap, then the wide one, to Memes; ben is signed in in
    /// his own home and has opened neither.
    static func postedClass() throws -> (TestServer, TemporaryDirectory) {
        let server = try TestServer()
        let ann = try server.registeredSession("ann")
        _ = try ann.post(feed: "Memes", image: try square.png())
        _ = try ann.post(feed: "Memes", image: try wide.png())
        let home = TemporaryDirectory("ben")
        let (ben, _) = try server.session(home: home)
        _ = try ben.register(username: "ben", password: "correct horse battery", classCode: server.configuration.classCode ?? "")
        return (server, home)
    }

    static func app(
        _ emulator: X11Terminal.Emulator, server: TestServer, home: TemporaryDirectory, font: X11Terminal.Font,
        pictures: String? = nil, columns: Int = columns, rows: Int = rows
    ) throws -> X11Terminal {
        try X11Terminal(
            emulator, command: Subprocess.executable("snapshare"),
            arguments: ["--server", "127.0.0.1:\(server.port)", "--ca", server.caPath]
                + (pictures.map { ["app", "--pictures", $0] } ?? []),
            environment: ["SNAPSHARE_HOME": home.path], columns: columns, rows: rows, font: font)
    }

    /// Where the text cells lie in a screenshot of `emulator`'s window: xterm draws them 2 pixels
    /// in from its edge, kitty (no padding) from its corner.
    struct Cells {
        let inset: Int, width: Int, height: Int

        init(
            _ emulator: X11Terminal.Emulator, screenshot: RGBImage, columns: Int = AppPicturesX11Tests.columns,
            rows: Int = AppPicturesX11Tests.rows
        ) {
            inset = emulator == .kitty ? 0 : 2
            width = (screenshot.width - 2 * inset) / columns
            height = (screenshot.height - 2 * inset) / rows
        }

        func row(_ row: Int, in shot: RGBImage) -> PixelBox {
            PixelBox(x: 0, y: inset + row * height, width: shot.width, height: height)
        }
    }

    /// Text: neither the background nor a snap's frame colour.
    static func ink(_ background: RGBImage.Color) -> (RGBImage.Color) -> Bool {
        { !$0.isNear(background, tolerance: 40) && !$0.isNear(magenta) && !$0.isNear(green) }
    }

    /// Opens the selected snap and checks it on the screen, then closes it and checks the screen
    /// is clean; returns where the picture was. `columns` x `rows`: the window's size in cells.
    @discardableResult
    static func openAndMeasure(
        _ snap: FramedSnap, in terminal: X11Terminal, emulator: X11Terminal.Emulator, aspectTolerance: Double,
        screenshot name: String? = nil, columns: Int = columns, rows: Int = rows
    ) throws -> PixelBox {
        try terminal.press("Return")
        let shot = try terminal.wait(timeout: 15) { $0.count { $0.isNear(snap.frame) } > 2_000 }
        if let name, let folder = X11Terminal.screenshotsDirectory { _ = try terminal.screenshot(savingTo: folder + "/" + name) }
        let cells = Cells(emulator, screenshot: shot, columns: columns, rows: rows)
        let background = shot.backgroundColor()
        let picture = try #require(shot.boundingBox { $0.isNear(snap.frame) }, "no picture on the screen")
        let caption = cells.row(rows - 1, in: shot)

        // Wholly inside the window, above the caption row.
        #expect(shot.bounds.contains(picture), "the picture is \(picture) in a \(shot.width)x\(shot.height) window")
        #expect(picture.maxY <= caption.y, "the picture (\(picture)) reaches into the caption row at \(caption.y)")
        #expect(
            picture.height >= (rows - 2) * cells.height || picture.width >= (columns - 2) * cells.width,
            "the picture (\(picture)) does not fill its area")
        // Its aspect ratio is the source's.
        let shown = Double(picture.width) / Double(picture.height)
        #expect(abs(shown / snap.aspect - 1) <= aspectTolerance, "aspect \(shown) shown for \(snap.aspect): \(picture)")
        // The caption is on the last row: a line of text from the left edge, no picture in it.
        let text = try #require(shot.boundingBox(in: caption, where: ink(background)), "no caption on the last row")
        #expect(text.x <= cells.inset + 2 * cells.width && text.width >= 30 * cells.width, "the caption is \(text)")
        #expect(shot.count(in: caption) { $0.isNear(snap.frame) } == 0, "the picture covers the caption")

        // Any key closes it; the Feeds screen comes back with no picture left on it.
        try terminal.press("x")
        let closed = try terminal.wait(timeout: 10) { $0.count { $0.isNear(snap.frame) } == 0 }
        #expect(closed.count { $0.isNear(snap.frame) } == 0, "pixels of the picture are left after it closed")
        #expect(closed.boundingBox(where: ink(closed.backgroundColor())) != nil, "the app's screen did not come back")
        return picture
    }

    static func run(_ emulator: X11Terminal.Emulator, font: X11Terminal.Font, names: (String, String)) throws {
        let (server, home) = try postedClass()
        let terminal = try app(emulator, server: server, home: home, font: font)
        // Signed in: the tab bar and status line are drawn.
        _ = try terminal.wait(timeout: 15) { $0.boundingBox(where: ink($0.backgroundColor())) != nil }
        try terminal.press("2")
        // Unread rows in a colour that reads on the terminal's background (OSC 11): xterm's white
        // gets dark blue (palette 25), kitty's black bright cyan (45), never the other way round.
        let feeds = try terminal.wait(timeout: 10) { $0.count { $0.isNear(unreadOnLight) || $0.isNear(unreadOnDark) } > 20 }
        let light = feeds.backgroundColor().isNear(.white, tolerance: 40)
        // The rows below the tab bar (whose black-on-cyan reads on both).
        let layout = Cells(emulator, screenshot: feeds)
        let list = PixelBox(x: 0, y: layout.row(2, in: feeds).y, width: feeds.width, height: (rows - 4) * layout.height)
        #expect(
            feeds.count(in: list) { $0.isNear(light ? unreadOnLight : unreadOnDark) } > 20,
            "no unread rows in \(light ? "dark blue" : "cyan")")
        #expect(
            feeds.count(in: list) { $0.isNear(light ? unreadOnDark : unreadOnLight) } == 0, "unread rows in the other background's colour")
        // Newest first: the wide snap is selected, the square one below it.
        try openAndMeasure(wide, in: terminal, emulator: emulator, aspectTolerance: 0.03, screenshot: names.0)
        // The selection moves down: the screen changes, then settles.
        let selectedFirst = try terminal.screenshot()
        try terminal.press("Down")
        _ = try terminal.wait(timeout: 10) { $0 != selectedFirst }
        try openAndMeasure(square, in: terminal, emulator: emulator, aspectTolerance: 0.03, screenshot: names.1)
        try terminal.press("q")
    }

    @Test(
        "xterm as a VT340: a wide and a square snap as sixels inside the window above the caption, aspect within 3%, a clean screen after",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: true)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func xtermSixel() throws {
        try Self.run(
            .xterm(sixel: true), font: .outline(family: "Monospace", points: 11), names: ("xterm-sixel-wide.png", "xterm-sixel-square.png"))
    }

    @Test(
        "xterm as a VT340 resized while the app runs: a snap opened after it fills its box as one opened after a start at that size",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: true)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func xtermSixelAfterAResize() throws {
        let (server, home) = try Self.postedClass()
        let font = X11Terminal.Font.outline(family: "Monospace", points: 11)
        // xterm limits a sixel to its window (and to 1000 pixels a side): 90x28 cells of 11x22 stay within both.
        let (columns, rows) = (90, 28)
        let terminal = try Self.app(.xterm(sixel: true), server: server, home: home, font: font)
        let started = try terminal.wait(timeout: 15) { $0.boundingBox(where: Self.ink($0.backgroundColor())) != nil }
        try terminal.resize(columns: columns, rows: rows)
        let cell = Cells(.xterm(sixel: true), screenshot: started)
        _ = try terminal.wait(timeout: 10) { $0.width >= columns * cell.width }
        try terminal.press("2")
        _ = try terminal.wait(timeout: 10) { $0.count { $0.isNear(Self.unreadOnLight) || $0.isNear(Self.unreadOnDark) } > 20 }
        let resized = try Self.openAndMeasure(
            Self.wide, in: terminal, emulator: .xterm(sixel: true), aspectTolerance: 0.03,
            screenshot: "xterm-sixel-resized.png", columns: columns, rows: rows)
        try terminal.press("q")

        // Another student's app started at that size opens the same snap.
        let other = TemporaryDirectory("cleo")
        let (cleo, _) = try server.session(home: other)
        _ = try cleo.register(username: "cleo", password: "correct horse battery", classCode: server.configuration.classCode ?? "")
        let fresh = try Self.app(.xterm(sixel: true), server: server, home: other, font: font, columns: columns, rows: rows)
        _ = try fresh.wait(timeout: 15) { $0.boundingBox(where: Self.ink($0.backgroundColor())) != nil }
        try fresh.press("2")
        _ = try fresh.wait(timeout: 10) { $0.count { $0.isNear(Self.unreadOnLight) || $0.isNear(Self.unreadOnDark) } > 20 }
        let restarted = try Self.openAndMeasure(
            Self.wide, in: fresh, emulator: .xterm(sixel: true), aspectTolerance: 0.03,
            columns: columns, rows: rows)
        try fresh.press("q")
        #expect(
            abs(resized.width - restarted.width) <= 12 && abs(resized.height - restarted.height) <= 6,
            "after the resize the picture is \(resized), after a start at that size \(restarted)")
    }

    @Test(
        "xterm with its own 6x13 font: the same, with the cell size from the window's pixels",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: true)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func xtermSixelSmallFont() throws {
        try Self.run(.xterm(sixel: true), font: .standard, names: ("xterm-sixel-small-wide.png", "xterm-sixel-small-square.png"))
    }

    @Test(
        "kitty: a wide and a square snap through the kitty protocol, not stretched, above the caption, a clean screen after",
        .enabled(if: X11Terminal.isUsable(.kitty), "needs Xvfb, kitty starting on software OpenGL, xdotool and ImageMagick"))
    func kitty() throws {
        try Self.run(.kitty, font: .standard, names: ("kitty-wide.png", "kitty-square.png"))
    }

    @Test(
        "--pictures sixel in plain xterm, and --pictures sixel in kitty: the snap is drawn in half blocks, not spent on nothing",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: false)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func forcedProtocolFallsBack() throws {
        var cases: [(X11Terminal.Emulator, String)] = [(.xterm(sixel: false), "sixel"), (.xterm(sixel: false), "kitty")]
        if X11Terminal.isUsable(.kitty) { cases.append((.kitty, "sixel")) }
        for (emulator, forced) in cases {
            let (server, home) = try Self.postedClass()
            let terminal = try Self.app(
                emulator, server: server, home: home, font: .outline(family: "Monospace", points: 11), pictures: forced)
            _ = try terminal.wait(timeout: 15) { $0.boundingBox(where: Self.ink($0.backgroundColor())) != nil }
            try terminal.press("2")
            _ = try terminal.wait(timeout: 10) { $0.count { $0.isNear(Self.unreadOnLight) || $0.isNear(Self.unreadOnDark) } > 20 }
            // Half blocks are cells: two pixels a cell, so the aspect is the cell's, within about a tenth.
            try Self.openAndMeasure(
                Self.wide, in: terminal, emulator: emulator, aspectTolerance: 0.12,
                screenshot: "\(emulator == .kitty ? "kitty" : "xterm")-forced-\(forced).png")
            try terminal.press("q")
        }
    }

    @Test(
        "snapshare view and samples show in xterm as a VT340: the same probe and sixels as the app; the view is spent on a visible picture",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: true)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func commandsDrawLikeTheApp() throws {
        let (server, home) = try Self.postedClass()
        let arguments = ["--server", "127.0.0.1:\(server.port)", "--ca", server.caPath]
        /// `snapshare WORDS`, with the server named for the commands that reach it (samples never does).
        func command(_ words: [String], in emulator: X11Terminal.Emulator = .xterm(sixel: true)) throws -> X11Terminal {
            try X11Terminal(
                emulator, command: Subprocess.executable("snapshare"), arguments: (words.first == "samples" ? [] : arguments) + words,
                environment: ["SNAPSHARE_HOME": home.path], columns: Self.columns, rows: Self.rows,
                font: .outline(family: "Monospace", points: 11))
        }
        // Snap 1 is the square one: a sixel the size of the area above the caption, the aspect kept.
        let viewer = try command(["view", "1"])
        let shot = try viewer.wait(timeout: 15) { $0.count { $0.isNear(Self.magenta) } > 2_000 }
        let cells = Cells(.xterm(sixel: true), screenshot: shot)
        let picture = try #require(shot.boundingBox { $0.isNear(Self.magenta) })
        #expect(
            picture.maxY <= cells.row(Self.rows - 1, in: shot).y && abs(Double(picture.width) / Double(picture.height) - 1) <= 0.03,
            "the picture is \(picture)")
        #expect(picture.height >= (Self.rows - 2) * cells.height, "sized with the real cells: \(picture)")
        try viewer.press("x")
        let after = try viewer.wait(timeout: 10) { _ in viewer.exitStatus != nil }
        #expect(viewer.exitStatus == 0 && after.count { $0.isNear(Self.magenta) } == 0, "exit \(String(describing: viewer.exitStatus))")

        // A protocol forced on plain xterm: half blocks, and the view is spent on them.
        let forced = try command(["view", "2", "--pictures", "kitty"], in: .xterm(sixel: false))
        let blocks = try forced.wait(timeout: 15) { $0.count { $0.isNear(Self.green) } > 2_000 }
        #expect(
            blocks.boundingBox { $0.isNear(Self.green) }.map { $0.width >= (Self.columns - 2) * cells.width } == true,
            "the half blocks fill the width")
        try forced.press("x")
        _ = try forced.wait(timeout: 10) { _ in forced.exitStatus != nil }
        #expect(forced.exitStatus == 0)

        // samples show draws sample 3 as a sixel too.
        let sample = try command(["samples", "show", "3"])
        let drawn = try sample.wait(timeout: 15) { screen in
            let background = screen.backgroundColor()
            return screen.count { !$0.isNear(background, tolerance: 40) } > 100_000
        }
        let background = drawn.backgroundColor()
        #expect(drawn.count { !$0.isNear(background, tolerance: 40) } > 100_000, "no picture drawn")
        try sample.press("x")
        _ = try sample.wait(timeout: 10) { _ in sample.exitStatus != nil }
        #expect(sample.exitStatus == 0)
    }

    @Test(
        "snapshare view in xterm as a VT340 resized while it shows a sixel: the picture is drawn again to fill its new box",
        .enabled(if: X11Terminal.isUsable(.xterm(sixel: true)), "needs Xvfb, xterm, xdotool and ImageMagick (.ci/run installs them)"))
    func viewFollowsAResize() throws {
        let (server, home) = try Self.postedClass()
        let font = X11Terminal.Font.outline(family: "Monospace", points: 11)
        let viewer = try X11Terminal(
            .xterm(sixel: true), command: Subprocess.executable("snapshare"),
            arguments: ["--server", "127.0.0.1:\(server.port)", "--ca", server.caPath, "view", "1"],
            environment: ["SNAPSHARE_HOME": home.path], columns: Self.columns, rows: Self.rows, font: font)
        let before = try viewer.wait(timeout: 15) { $0.count { $0.isNear(Self.magenta) } > 2_000 }
        let cells = Cells(.xterm(sixel: true), screenshot: before)
        let first = try #require(before.boundingBox { $0.isNear(Self.magenta) })
        // xterm bounds a sixel by its window as it was when asked (and by 1000 pixels a side):
        // 90x30 cells of 11x22 is taller than the limit it gave at 80x24, and within 1000.
        let (columns, rows) = (90, 30)
        try viewer.resize(columns: columns, rows: rows)
        let newBox = (rows - 2) * cells.height
        let after = try viewer.wait(timeout: 15) { shot in
            shot.width >= columns * cells.width && (shot.boundingBox { $0.isNear(Self.magenta) }?.height ?? 0) >= newBox
        }
        if let folder = X11Terminal.screenshotsDirectory { _ = try viewer.screenshot(savingTo: folder + "/xterm-sixel-view-resized.png") }
        let picture = try #require(after.boundingBox { $0.isNear(Self.magenta) }, "no picture after the resize")
        let caption = Cells(.xterm(sixel: true), screenshot: after, columns: columns, rows: rows).row(rows - 1, in: after)
        #expect(picture.height >= newBox && picture.height > first.height, "before the resize \(first), after it \(picture)")
        #expect(after.bounds.contains(picture) && picture.maxY <= caption.y, "the picture \(picture), the caption row at \(caption.y)")
        #expect(abs(Double(picture.width) / Double(picture.height) - 1) <= 0.03, "the square snap is \(picture)")
        #expect(
            after.count(in: PixelBox(x: 0, y: 0, width: after.width, height: caption.y)) { $0.isNear(Self.magenta) }
                <= picture.width * picture.height, "a picture of the old size is left beside the new one")
        try viewer.press("x")
        _ = try viewer.wait(timeout: 10) { _ in viewer.exitStatus != nil }
        #expect(viewer.exitStatus == 0, "exit \(String(describing: viewer.exitStatus))")
    }

    /// How many different colours the screen shows: a photo in real pixels has thousands, the same
    /// photo in half blocks (two colours a cell) far fewer.
    static func distinctColours(_ shot: RGBImage) -> Int {
        var seen = Set<RGBImage.Color>()
        for y in 0..<shot.height { for x in 0..<shot.width { seen.insert(shot[x, y]) } }
        return seen.count
    }

    @Test(
        "kitty: the picker's samples are kitty pictures, not half blocks; another tab takes them away, coming back places them again",
        .enabled(if: X11Terminal.isUsable(.kitty), "needs Xvfb, kitty starting on software OpenGL, xdotool and ImageMagick"))
    func kittyThumbnails() throws {
        let (server, home) = try Self.postedClass()
        // The same picker in half blocks, for comparison in the same run.
        let blocks = try Self.app(.kitty, server: server, home: home, font: .standard, pictures: "halfblock")
        let inBlocks = try blocks.wait(timeout: 15) { Self.distinctColours($0) > 300 }
        try blocks.press("q")
        let pictures = try Self.app(.kitty, server: server, home: home, font: .standard)
        let picker = try pictures.wait(timeout: 15) { Self.distinctColours($0) > 3 * Self.distinctColours(inBlocks) }
        if let folder = X11Terminal.screenshotsDirectory { _ = try pictures.screenshot(savingTo: folder + "/kitty-picker.png") }
        #expect(
            Self.distinctColours(picker) > 3 * Self.distinctColours(inBlocks),
            "\(Self.distinctColours(picker)) colours with kitty thumbnails, \(Self.distinctColours(inBlocks)) in half blocks")
        try pictures.press("2")
        let feeds = try pictures.wait(timeout: 10) { Self.distinctColours($0) < Self.distinctColours(inBlocks) }
        #expect(Self.distinctColours(feeds) < Self.distinctColours(inBlocks), "thumbnails left on the Feeds screen")
        try pictures.press("1")
        let back = try pictures.wait(timeout: 10) { Self.distinctColours($0) > 3 * Self.distinctColours(inBlocks) }
        #expect(Self.distinctColours(back) > 3 * Self.distinctColours(inBlocks), "the thumbnails did not come back")
        try pictures.press("q")
    }
}
