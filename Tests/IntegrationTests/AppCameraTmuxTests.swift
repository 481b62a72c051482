import Client
import Foundation
import Posix
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

private let ffmpegInstalled = ChildProcess.find("ffmpeg", searchPath: ProcessInfo.processInfo.environment["PATH"]) != nil

/// The Post tab's Camera tile in the real app, full screen in tmux against a real server, with
/// FFmpeg's moving test picture as the camera. Each test's picture has a duration of its own (a
/// random number of seconds, days long), so the FFmpeg it starts is found by its command line
/// among those of other tests running at the same time.
@Suite(
    "The app's camera in tmux", .serialized,
    .enabled(if: TmuxPane.isAvailable, "tmux is not installed"),
    .enabled(if: ffmpegInstalled, "ffmpeg is not installed"))
struct AppCameraTmuxTests {
    /// A `testsrc2` source of `size` no other test uses, and the pattern that finds its FFmpeg.
    static func testPicture(size: String = "640x480") -> (device: String, ffmpeg: String) {
        let duration = Int.random(in: 100_000...999_999)
        let spec = "testsrc2=size=\(size):rate=15:duration=\(duration)"
        return ("lavfi:" + spec, "^[^ ]*ffmpeg .*\(spec)")
    }

    /// The processes whose command line matches `pattern` (pgrep -f).
    static func processes(_ pattern: String) throws -> [Int32] {
        try Subprocess.runTool("/usr/bin/pgrep", ["-f", pattern], timeout: 10).stdout.split(separator: "\n").compactMap { Int32($0) }
    }

    /// Waits up to `timeout` seconds for no process to match `pattern`; true when none does. Only
    /// its parent hears when a process ends: the test looks for it by its command line.
    static func noneRemain(_ pattern: String, timeout: Double = 5) throws -> Bool {
        try Polling.first(timeout: timeout, every: 0.1) { try processes(pattern).isEmpty ? true : nil } ?? false
    }

    /// The app signed in as a new user `name`, its Camera tile reading `device`, in true colour
    /// (so that two frames in half blocks differ in the colours captured).
    static func app(_ server: TestServer, _ name: String, device: String) throws -> TmuxPane {
        let (home, _) = try AppTmuxTests.registeredHome(server, name)
        let pane = try AppTmuxTests.app(
            server, home: home, arguments: ["app", "--camera-device", device], environment: ["COLORTERM": "truecolor"])
        try pane.wait { $0.contains("Signed in as \(name)") && $0.contains("Pick a picture") }
        return pane
    }

    /// Enter on the Camera tile, selected at the start; returns the screen once a frame shows.
    static func openPreview(_ pane: TmuxPane) throws -> String {
        try pane.send("Enter")
        return try pane.wait { $0.contains("Space takes") && !$0.contains("Waiting for the first picture") }
    }

    @Test("the Camera tile comes first; its preview moves, Space freezes it, Enter and Post send exactly that 640x480 picture to Memes")
    func takeAndPost() throws {
        let server = try TestServer()
        let camera = Self.testPicture()
        let pane = try Self.app(server, "snapper", device: camera.device)
        let picker = try pane.capture()
        let tiles = try #require(picker.split(separator: "\n").first { $0.contains("Camera") }, "\(picker)")
        #expect(tiles.contains("▶ Camera"), "the Camera tile is selected at the start: \(picker)")
        if let cameraAt = tiles.range(of: "Camera"), let first = tiles.range(of: "1 astronaut") {
            #expect(cameraAt.lowerBound < first.lowerBound, "before the samples: \(tiles)")
        } else {
            Issue.record("the first row of tiles has the Camera and sample 1: \(picker)")
        }
        #expect(try Self.processes(camera.ffmpeg).isEmpty, "no FFmpeg before the tile is chosen")

        let preview = try Self.openPreview(pane)
        #expect(preview.contains("Camera \(camera.device)"), "\(preview)")
        #expect(try Self.processes(camera.ffmpeg).count == 1, "one FFmpeg while the preview shows")
        // testsrc2 moves: the colours on screen change within 0.7 s, at 15 frames a second.
        let before = try pane.capture(styles: true)
        let after = try Polling.first(timeout: 0.7, every: 0.05) { () throws -> String? in
            let now = try pane.capture(styles: true)
            return now != before ? now : nil
        }
        #expect(after != nil, "the preview is live")

        try pane.send("Space")
        // Settled with its colours too: the last live frame may still be drawing when Taken shows.
        let frozen = try pane.wait(styles: true) { $0.contains("Taken") }
        // What must not happen has no event: a window of ten frames in which a live one would move.
        Thread.sleep(forTimeInterval: 0.7)
        #expect(try pane.capture(styles: true) == frozen, "a taken picture stays still")

        try pane.send("Enter")
        var screen = try pane.wait { $0.contains("Post camera picture to which feed?") }
        #expect(try Self.noneRemain(camera.ffmpeg), "the camera stops once the picture is kept")
        for _ in 0..<10 where !screen.contains("◉ Memes") {
            try pane.send("Down")
            screen = try pane.wait(timeout: 2) { $0.contains("◉ Memes") }
        }
        try pane.send("Enter")
        screen = try pane.wait { $0.contains("to Memes (the camera") }
        #expect(screen.contains("Posted snap ") && screen.contains("Pick a picture"), "back at the picker: \(screen)")

        // Another user sees exactly one snap, the camera's 640x480 picture.
        let snaps = try server.registeredSession("checker").snaps(feed: nil).snaps
        #expect(snaps.count == 1, "\(snaps)")
        #expect(snaps.first.map { "\($0.poster) \($0.feed) \($0.width)x\($0.height)" } == "snapper Memes 640x480", "\(snaps)")
        try pane.send("q")
    }

    @Test("Esc in the preview goes back to the picker, posts nothing and ends FFmpeg; so does Esc after a picture is taken")
    func escapePostsNothing() throws {
        let server = try TestServer()
        let camera = Self.testPicture(size: "632x474")
        let pane = try Self.app(server, "shy", device: camera.device)
        _ = try Self.openPreview(pane)
        #expect(try Self.processes(camera.ffmpeg).count == 1)
        try pane.send("Escape")
        let screen = try pane.wait { $0.contains("Pick a picture") }
        #expect(screen.contains("▶ Camera"), "\(screen)")
        #expect(try Self.noneRemain(camera.ffmpeg), "FFmpeg ended with the preview")

        // Opened again: a new FFmpeg, taken, then Esc.
        _ = try Self.openPreview(pane)
        try pane.send("Space")
        try pane.wait { $0.contains("Taken ·") }
        try pane.send("Escape")
        try pane.wait { $0.contains("Pick a picture") }
        #expect(try Self.noneRemain(camera.ffmpeg))
        #expect(try server.registeredSession("watcher").snaps(feed: nil).snaps.isEmpty, "nothing was posted")
        try pane.send("q")
    }

    @Test(
        """
        no camera at the device: said in the status line in the error style, \
        the picker still works; q or SIGTERM during the preview end FFmpeg
        """
    )
    func failuresAndQuitting() throws {
        let server = try TestServer()
        let missing = try Self.app(server, "nocam", device: "/dev/video97")
        try missing.send("Enter")
        var screen = try missing.wait { $0.contains("no camera at /dev/video97") }
        #expect(screen.contains("Pick a picture"), "back at the picker: \(screen)")
        let status = try #require(try missing.capture(styles: true).split(separator: "\n").last { $0.contains("no camera at") })
        #expect(status.contains("\u{1B}[1"), "bold, the error style: \(status.debugDescription)")
        // The picker still works: sample 1, then a feed.
        try missing.send("Right", "Enter")
        screen = try missing.wait { $0.contains("to which feed?") }
        #expect(screen.contains("Post 1 astronaut to which feed?"), "\(screen)")
        try missing.send("q")

        // q while the preview runs.
        let quitting = Self.testPicture(size: "624x468")
        let pane = try Self.app(server, "quitter", device: quitting.device)
        _ = try Self.openPreview(pane)
        #expect(try Self.processes(quitting.ffmpeg).count == 1)
        try pane.send("q")
        _ = try pane.wait { _ in (try? pane.hasExited()) == true }
        #expect(try pane.hasExited())
        #expect(try Self.noneRemain(quitting.ffmpeg), "FFmpeg ended with the app")

        // SIGTERM to the app while the preview runs.
        let terminated = Self.testPicture(size: "616x462")
        let other = try Self.app(server, "terminated", device: terminated.device)
        _ = try Self.openPreview(other)
        let app = try #require(try Self.processes("^[^ ]*/snapshare .*\(terminated.device.dropFirst("lavfi:".count))").first)
        kill(app, SIGTERM)
        _ = try other.wait { _ in (try? other.hasExited()) == true }
        #expect(try other.hasExited())
        #expect(try Self.noneRemain(terminated.ffmpeg), "FFmpeg ended with the app")
    }
}
