import Foundation
import Posix
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `snapshare post --camera` on a terminal (a tmux pane) reading an FFmpeg test source: the live
/// preview, its keys, and every way out ending FFmpeg and giving the terminal back. Each test
/// reads a source of a size of its own, so its FFmpeg is told apart from another test's.
@Suite(
    "post --camera in tmux", .serialized,
    .enabled(if: TmuxPane.isAvailable, "tmux is not installed"), .enabled(if: CameraTools.ffmpegIsInstalled, "ffmpeg is not installed"))
struct CameraTmuxTests {
    /// The preview in a `columns` x `rows` pane, signed in as a user of `server`; the shell
    /// prints "exited N" once snapshare ends, and its standard error goes to `stderr`. The
    /// shell then sleeps: a pane that dies scrolls its last lines away (tmux 3.3).
    struct Preview {
        let pane: TmuxPane
        let home: TemporaryDirectory
        let folder = TemporaryDirectory("camera-tmux")
        var stderr: String { (try? String(contentsOfFile: folder.file("stderr"), encoding: .utf8)) ?? "" }

        init(_ server: TestServer, spec: String, columns: Int = 80, rows: Int = 24, extra: String = "") throws {
            let (home, _) = try AppTmuxTests.registeredHome(server, "ann")
            self.home = home
            let command =
                "'\(Subprocess.executable("snapshare"))' post --camera --camera-device 'lavfi:\(spec)' --feed Memes \(extra)"
                + " 2>'\(folder.file("stderr"))'; echo \"exited $?\"; exec sleep 600"
            pane = try TmuxPane(
                command, columns: columns, rows: rows,
                environment: [
                    "SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath,
                    "TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8",
                ])
        }

        /// A new server and the preview of `spec` on it, once its first picture shows.
        static func running(_ spec: String) throws -> (server: TestServer, preview: Preview, screen: String) {
            let server = try TestServer()
            let preview = try Preview(server, spec: spec)
            return (server, preview, try preview.pane.wait { $0.contains("Space takes") })
        }

        /// The screen once snapshare has ended.
        func exited(timeout: Double = 30) throws -> String {
            try pane.wait(timeout: timeout) { $0.contains("exited ") }
        }

        /// Checks snapshare ended with `status` having posted nothing, the normal screen back
        /// and no FFmpeg left reading `spec`; returns the screen.
        @discardableResult
        func endedWithoutPosting(
            _ status: Int, server: TestServer, spec: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> String {
            let screen = try exited()
            #expect(screen.contains("exited \(status)"), "\(screen)\n\(stderr)", sourceLocation: sourceLocation)
            #expect(
                !screen.contains("Space takes") && !screen.contains("Taken"), "the normal screen is back: \(screen)",
                sourceLocation: sourceLocation)
            #expect(try CameraTmuxTests.snapCount(server) == 0, "nothing posted", sourceLocation: sourceLocation)
            #expect(try CameraTools.noFFmpeg(reading: spec), "FFmpeg ended", sourceLocation: sourceLocation)
            return screen
        }

        /// Whether the picture changes within `seconds` (captured with its colours: the picture is
        /// half blocks, the same characters in other colours). A picture that must stay still
        /// has no event: then this is the window in which a live one would have moved.
        func changes(within seconds: Double = 0.6) throws -> Bool {
            let before = try pane.capture(styles: true)
            return try Polling.first(timeout: seconds, every: seconds / 5) { try pane.capture(styles: true) != before ? true : nil }
                ?? false
        }
    }

    static func snapCount(_ server: TestServer) throws -> Int64 { try CameraCommandLineTests.snapCount(server) }

    @Test("a picture taken while the server went away is not lost: the error names the file it was kept in, which posts later with --file")
    func pictureKeptWhenThePostFails() throws {
        let spec = "testsrc2=size=640x466:rate=15"
        let (server, preview, _) = try Preview.running(spec)
        server.stop()
        try preview.pane.send("Space")
        _ = try preview.pane.wait { $0.contains("Taken") }
        try preview.pane.send("Enter")
        let screen = try preview.exited()
        // A server stopping says so on the open connection (exit 1, "shutting down"); one already
        // gone is "cannot connect" (exit 3): either way the post failed and said why.
        #expect(screen.contains("exited 1") || screen.contains("exited 3"), "\(screen)\n\(preview.stderr)")
        #expect(preview.stderr.contains("shutting down") || preview.stderr.contains("connect"), "\(preview.stderr)")
        let message = preview.stderr
        let kept = try #require(
            message.range(of: "post it with --file ").map {
                String(message[$0.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
            },
            "no kept file named: \(message)")
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let attributes = try FileManager.default.attributesOfItem(atPath: kept)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(attributes)")
        #expect(try CameraTools.noFFmpeg(reading: spec), "FFmpeg ended")

        try server.startAgain()
        let later = try Subprocess.run(
            "snapshare", ["post", "--feed", "Memes", "--file", kept],
            environment: ["SNAPSHARE_HOME": preview.home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath])
        #expect(later.status == 0, "\(later.stderr)")
        #expect(try Self.snapCount(server) == 1)
    }

    @Test("the preview is live; Space freezes it (Taken), r makes it live again, Space then Enter posts exactly one snap")
    func takeRetakeAndPost() throws {
        let spec = "testsrc2=size=640x480:rate=15"
        var (server, preview, screen) = try Preview.running(spec)
        #expect(screen.contains("Camera lavfi:\(spec)") || screen.contains("Camera lavfi:"), "\(screen)")
        #expect(try preview.changes(), "a live preview changes between captures")

        try preview.pane.send("Space")
        // Settled with its colours too: the last live frame may still be drawing when Taken shows.
        _ = try preview.pane.wait(styles: true) { $0.contains("Taken") }
        screen = try preview.pane.capture()
        #expect(screen.contains("Taken · Enter posts · r retakes"), "\(screen)")
        #expect(try !preview.changes(), "a taken picture stays still")

        try preview.pane.send("r")
        screen = try preview.pane.wait { $0.contains("Space takes") }
        #expect(!screen.contains("Taken"), "\(screen)")
        #expect(try preview.changes(), "live again after r")

        try preview.pane.send("Space")
        _ = try preview.pane.wait { $0.contains("Taken") }
        try preview.pane.send("Enter")
        screen = try preview.exited()
        #expect(screen.contains("exited 0"), "\(screen)\n\(preview.stderr)")
        let unwrapped = screen.replacingOccurrences(of: "\n", with: "")
        #expect(unwrapped.contains("Posted snap 1 to Memes (the camera (lavfi:\(spec)), 640x480"), "\(screen)")
        #expect(!screen.contains("Space takes") && !screen.contains("Taken"), "the normal screen is back: \(screen)")
        #expect(try Self.snapCount(server) == 1)
        #expect(try CameraTools.noFFmpeg(reading: spec))
    }

    @Test(
        "Esc cancels (exit 11), Ctrl-C interrupts (exit 130): nothing posted, FFmpeg ended, the terminal given back",
        arguments: [("Escape", 11, "cancelled: nothing was posted", "624x468"), ("C-c", 130, "interrupted: nothing was posted", "608x456")])
    func leaveWithoutPosting(key: String, status: Int, said: String, size: String) throws {
        let spec = "testsrc2=size=\(size):rate=15"
        let (server, preview, _) = try Preview.running(spec)
        #expect(try CameraTools.ffmpegs(reading: spec).count == 1, "one FFmpeg while previewing")
        try preview.pane.send(key)
        try preview.endedWithoutPosting(status, server: server, spec: spec)
        #expect(preview.stderr.contains(said), "\(preview.stderr)")
    }

    @Test("SIGTERM from outside: FFmpeg ended, the terminal given back, snapshare ends by that signal")
    func sigterm() throws {
        let spec = "testsrc2=size=592x444:rate=15"
        let (server, preview, _) = try Preview.running(spec)
        let found = try Subprocess.runTool("/usr/bin/pgrep", ["-f", "snapshare post --camera --camera-device lavfi:\(spec)"])
        let pids = found.stdout.split(separator: "\n").compactMap { pid_t($0) }
        let pid = try #require(pids.first, "snapshare's pid: \(found.stdout)")
        #expect(pids.count == 1)
        kill(pid, SIGTERM)
        try preview.endedWithoutPosting(128 + Int(SIGTERM), server: server, spec: spec)
    }

    @Test("a 15x5 terminal is too small: exit 10, FFmpeg never started")
    func tooSmall() throws {
        let server = try TestServer()
        let spec = "testsrc2=size=576x432:rate=15"
        let preview = try Preview(server, spec: spec, columns: 15, rows: 5)
        try preview.endedWithoutPosting(10, server: server, spec: spec)
        #expect(preview.stderr.contains("too small for the camera's preview: 15x5"), "\(preview.stderr)")
    }

    @Test("FFmpeg ending mid-preview: exit 10 saying so, nothing posted, the terminal given back")
    func ffmpegEndsMidPreview() throws {
        let spec = "testsrc2=size=560x420:rate=15:duration=2"
        let (server, preview, _) = try Preview.running(spec)
        try preview.endedWithoutPosting(10, server: server, spec: spec)
        #expect(preview.stderr.contains("FFmpeg stopped reading lavfi:\(spec) after "), "\(preview.stderr)")
    }
}
