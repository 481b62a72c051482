import Foundation
import Imaging
import Posix
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// FFmpeg's presence, and the FFmpeg processes a test started, found by a spec unique to it.
enum CameraTools {
    static let ffmpegIsInstalled = ChildProcess.find("ffmpeg", searchPath: ProcessInfo.processInfo.environment["PATH"]) != nil

    /// The running FFmpeg processes reading `spec` (an argument no other test uses).
    static func ffmpegs(reading spec: String) throws -> [String] {
        let found = try Subprocess.runTool("/usr/bin/pgrep", ["-f", "ffmpeg -hide_banner.* -i \(spec)"])
        return found.stdout.split(separator: "\n").map(String.init)
    }

    /// Waits up to `seconds` for no FFmpeg to read `spec`; whether none is left. Only its parent
    /// hears when an FFmpeg ends: the test looks for it by its command line.
    static func noFFmpeg(reading spec: String, within seconds: Double = 5) throws -> Bool {
        try Polling.first(timeout: seconds, every: 0.05) { try ffmpegs(reading: spec).isEmpty ? true : nil } ?? false
    }

    /// A folder to put first on the PATH with an `ffmpeg` that runs `script` (sh) instead, and
    /// writes its pid to `pid` in that folder first.
    static func fakeFFmpeg(_ script: String) throws -> TemporaryDirectory {
        let folder = TemporaryDirectory("fake-camera-tools")
        _ = try folder.write("#!/bin/sh\necho $$ > '\(folder.path)/pid'\n\(script)\n", to: "ffmpeg", mode: 0o755)
        return folder
    }

    /// Whether the process `pid` is gone (not running, and reaped: no zombie).
    static func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) == -1 && errno == ESRCH }
}

@Suite("post --camera in a script", .enabled(if: CameraTools.ffmpegIsInstalled, "ffmpeg is not installed"))
struct CameraCommandLineTests {
    typealias Student = CommandLineTests.Student

    static func snapCount(_ server: TestServer) throws -> Int64 { try server.count("SELECT count(*) FROM snaps") }

    @Test("a script's post --camera posts FFmpeg's colour bars, 640x480, with each bar where the test source draws it")
    func postsTheColourBars() throws {
        let server = try TestServer()
        let alice = try CameraFailureTests.registered(server)
        let spec = "smptebars=size=640x480:rate=15"
        let started = Date()
        let post = try alice.run("post", "--camera", "--camera-device", "lavfi:\(spec)", "--feed", "Memes", "--json")
        #expect(post.status == 0, "\(post.stderr)")
        #expect(Date().timeIntervalSince(started) >= 1, "a second of warm-up first")
        let snap = try #require(try JSONSerialization.jsonObject(with: Data(post.stdout.utf8)) as? [String: Any], "\(post.stdout)")
        let id = try #require(snap["id"] as? Int)
        #expect(snap["feed"] as? String == "Memes")
        #expect(snap["width"] as? Int == 640 && snap["height"] as? Int == 480, "\(snap)")
        #expect(try CameraTools.noFFmpeg(reading: spec, within: 1), "FFmpeg ended before the command did")

        let bob = try server.registeredSession("bob")
        let opened = try bob.open(snapID: UInt64(id))
        #expect(Array(opened.image.prefix(3)) == [0xFF, 0xD8, 0xFF], "a JPEG")
        let image = try ImageCodec.decode(opened.image, limits: .standard)
        #expect(image.width == 640 && image.height == 480)
        // The top two thirds: seven bars, 91 pixels wide, at 75 %: grey, yellow, cyan, green,
        // magenta, red, blue (as FFmpeg 5.1 draws them: 190 or 0 in each channel).
        let bars: [(String, [Int])] = [
            ("grey", [190, 190, 190]), ("yellow", [190, 190, 0]), ("cyan", [0, 190, 190]), ("green", [0, 190, 0]),
            ("magenta", [190, 0, 190]), ("red", [190, 0, 0]), ("blue", [0, 0, 190]),
        ]
        for (index, (name, expected)) in bars.enumerated() {
            for y in [40, 160, 280] {
                let pixel = image[45 + 91 * index, y]
                let got = [Int(pixel.red), Int(pixel.green), Int(pixel.blue)]
                #expect(zip(got, expected).allSatisfy { abs($0 - $1) <= 24 }, "bar \(index) (\(name)) at y \(y): \(got)")
            }
        }
        // The bottom quarter begins with white (the second block) and ends black.
        let white = image[136, 420]
        let black = image[600, 420]
        #expect(white.red > 230 && white.green > 230 && white.blue > 230, "\(white)")
        #expect(black.red < 30 && black.green < 30 && black.blue < 30, "\(black)")
    }

    @Test("a source that ends by itself before the warm-up is over still gives its last picture")
    func aShortSourceGivesItsLastPicture() throws {
        let server = try TestServer()
        let alice = try CameraFailureTests.registered(server)
        let post = try alice.run(
            "post", "--camera", "--camera-device", "lavfi:testsrc2=size=320x240:duration=0.3:rate=15", "--feed", "Memes")
        #expect(post.status == 0, "\(post.stderr)")
        #expect(post.stdout.contains("Posted snap") && post.stdout.contains("320x240"), "\(post.stdout)")
    }

    @Test("--camera with another picture, or --camera-device without --camera, is a usage error and opens nothing")
    func usage() throws {
        let server = try TestServer()
        let alice = try CameraFailureTests.registered(server)
        let both = try alice.run("post", "--camera", "--sample", "3", "--feed", "Memes")
        #expect(both.status == 2 && both.stderr.contains("give one of --sample, --file or --camera"), "\(both.stderr)")
        let file = try alice.run("post", "--camera", "--file", "/etc/hostname", "--feed", "Memes")
        #expect(file.status == 2, "\(file.stderr)")
        let deviceOnly = try alice.run("post", "--camera-device", "lavfi:testsrc2", "--sample", "3", "--feed", "Memes")
        #expect(deviceOnly.status == 2 && deviceOnly.stderr.contains("--camera-device only applies with --camera"), "\(deviceOnly.stderr)")
        let empty = try alice.run("post", "--camera", "--camera-device", "lavfi:", "--feed", "Memes")
        #expect(empty.status == 2 && empty.stderr.contains("lavfi: needs an FFmpeg source"), "\(empty.stderr)")
        #expect(try Self.snapCount(server) == 0)
    }
}

@Suite("post --camera when the camera cannot be used", .enabled(if: CameraTools.ffmpegIsInstalled, "ffmpeg is not installed"))
struct CameraFailureTests {
    typealias Student = CommandLineTests.Student

    static func registered(_ server: TestServer) throws -> Student {
        let alice = Student(server: server)
        let registered = try alice.run("register", "alice", "--password-stdin", stdin: "alice password\n")
        guard registered.status == 0 else { throw ProcessError("register: \(registered.stderr)") }
        return alice
    }

    static func post(_ student: Student, device: String, environment: [String: String] = [:]) throws -> Subprocess.Result {
        try Subprocess.run(
            "snapshare", ["post", "--camera", "--camera-device", device, "--feed", "Memes"],
            environment: student.environment.merging(environment) { _, new in new })
    }

    /// What a signed-in student's `post --camera` from `device` says on standard error, having
    /// checked it exits 10 and posts nothing.
    static func refusal(
        device: String, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let server = try TestServer()
        let post = try Self.post(try registered(server), device: device, environment: environment)
        #expect(post.status == 10, "\(post.stderr)", sourceLocation: sourceLocation)
        #expect(try CameraCommandLineTests.snapCount(server) == 0, "nothing posted", sourceLocation: sourceLocation)
        return post.stderr
    }

    /// A PATH with the fake `ffmpeg` of `tools` first.
    static func path(_ tools: TemporaryDirectory) -> [String: String] { ["PATH": "\(tools.path):/usr/bin:/bin"] }

    @Test("no ffmpeg on the PATH: exit 10, how to install it, nothing posted (the feed shows nothing)")
    func ffmpegMissing() throws {
        let server = try TestServer()
        let alice = try Self.registered(server)
        let empty = TemporaryDirectory("empty-path")
        let post = try Self.post(alice, device: "lavfi:testsrc2", environment: ["PATH": empty.path])
        #expect(post.status == 10, "\(post.stderr)")
        #expect(post.stderr.contains("install ffmpeg to use the camera"), "\(post.stderr)")
        let feed = try alice.run("feed", "--json")
        #expect(feed.status == 0 && feed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(feed.stdout)")
    }

    @Test("a device that does not exist: exit 10, no camera there and where to look")
    func noSuchDevice() throws {
        let said = try Self.refusal(device: "/dev/video97")
        #expect(said.contains("no camera at /dev/video97") && said.contains("snapshare camera --list"), "\(said)")
    }

    @Test("a source that never sends a picture: exit 10 after SNAPSHARE_CAMERA_TIMEOUT, and the FFmpeg it started is ended")
    func noFrameInTime() throws {
        let tools = try CameraTools.fakeFFmpeg("exec sleep 60")
        let started = Date()
        let said = try Self.refusal(
            device: "lavfi:testsrc2", environment: Self.path(tools).merging(["SNAPSHARE_CAMERA_TIMEOUT": "1"]) { $1 })
        #expect(said.contains("no picture from lavfi:testsrc2 within 1 s"), "\(said)")
        #expect(Date().timeIntervalSince(started) < 12, "the timeout, and a short wait for FFmpeg to end")
        let pid = try #require(
            pid_t(try String(contentsOfFile: tools.file("pid"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(CameraTools.isGone(pid), "the fake FFmpeg (pid \(pid)) was ended")
    }

    @Test("FFmpeg failing at once: exit 10 with its last words")
    func ffmpegFailsAtOnce() throws {
        let tools = try CameraTools.fakeFFmpeg("echo 'lavfi: Invalid argument' >&2; exit 1")
        let said = try Self.refusal(device: "lavfi:nonsense", environment: Self.path(tools))
        #expect(said.contains("FFmpeg could not read lavfi:nonsense (exit status 1): lavfi: Invalid argument"), "\(said)")
    }

    @Test("a lost server is said before the camera is opened")
    func lostServer() throws {
        let server = try TestServer()
        let alice = try Self.registered(server)
        let tools = try CameraTools.fakeFFmpeg("exec sleep 60")
        server.stop()
        let post = try Self.post(alice, device: "lavfi:testsrc2", environment: Self.path(tools))
        #expect(post.status == 3, "\(post.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tools.file("pid")), "FFmpeg was never started")
    }
}
