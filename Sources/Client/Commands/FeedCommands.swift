import Foundation
import Imaging
import JSON
import Posix
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// feeds, feed [NAME] [--watch], post.
enum FeedCommands {
    static func feeds(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let feeds = try session.feeds()
        if context.json {
            context.printJSON(.array(feeds.map(SnapPresenter.json)))
            return
        }
        var table = TextTable(columns: [.init("FEED"), .init("SNAPS", alignment: .right), .init("UNREAD", alignment: .right)])
        for feed in feeds { table.append([feed.name, "\(feed.snapCount)", "\(feed.unreadCount)"]) }
        context.console.raw(table.render() + "\n")
    }

    static func feed(_ context: CommandContext) throws(ClientError) {
        // Usage first: a bad flag is reported before anything is asked of the server.
        let watching = context.parsed.flag("--watch")
        var interval = 2.0
        if let text = context.parsed.string("--interval") {
            guard watching else { throw context.usage("--interval only applies with --watch") }
            guard let value = Double(text), value >= 0.2, value <= 3600 else {
                throw context.usage("--interval takes seconds between 0.2 and 3600")
            }
            interval = value
        }
        var feed: String?
        if let raw = context.parsed.positional(0) { feed = try context.feedName(raw) }
        let session = try context.authenticated()
        let clockOffset = (session.welcome.serverTime) - Timestamp.now()
        // JSON has no sections, so it needs no feed names.
        var watch = FeedWatch(feed: feed, wantsFeedNames: !context.json)
        try watch.refresh(using: session)
        guard watching else {
            context.console.raw(render(watch, context: context, now: Timestamp.now() + clockOffset))
            return
        }
        // A terminal shows ages ("5 min ago"), so it is redrawn whenever the text changes; a pipe
        // gets a new listing only when the snaps themselves do (new, read, deleted or expired).
        let redrawsAges = context.console.outputIsTerminal && !context.json
        var lastShown: String?
        while true {
            let now = Timestamp.now() + clockOffset
            let drawn = render(watch, context: context, now: now)
            let shown = redrawsAges || context.json ? drawn : snapshot(watch, now: now)
            if shown != lastShown {
                lastShown = shown
                if redrawsAges {
                    context.console.raw("\u{1B}[H\u{1B}[2J")
                    context.console.out("Watching \(watch.feedNames.count == 1 ? watch.feedNames[0] : "every feed") · Ctrl-C stops\n")
                }
                context.console.raw(drawn)
            }
            Thread.sleep(forTimeInterval: interval)
            try watch.refresh(using: session)
        }
    }

    /// The watched listing as printed: one JSON line, or a section per feed.
    private static func render(_ watch: FeedWatch, context: CommandContext, now: Int64) -> String {
        let snaps = watch.liveSnaps(now: now)
        if context.json {
            return JSONValue.array(snaps.map(SnapPresenter.json)).toJSON(pretty: false) + "\n"
        }
        return SnapPresenter.sections(feeds: watch.feedNames, snaps: snaps, now: now)
    }

    /// What a listing shows apart from ages: its feeds and each live snap with its state.
    private static func snapshot(_ watch: FeedWatch, now: Int64) -> String {
        (watch.feedNames + watch.liveSnaps(now: now).map { "\($0.id) \($0.state)" }).joined(separator: "\n")
    }

    static func post(_ context: CommandContext) throws(ClientError) {
        guard let raw = context.parsed.string("--feed") else {
            throw context.usage("--feed NAME is required: a snap goes to exactly one feed")
        }
        let feed = try context.feedName(raw)
        let sample = context.parsed.string("--sample")
        let file = context.parsed.string("--file")
        let camera = context.parsed.flag("--camera")
        let deviceText = context.parsed.string("--camera-device")
        guard [sample != nil, file != nil, camera].filter({ $0 }).count <= 1 else {
            throw context.usage("give one of --sample, --file or --camera, not more")
        }
        if deviceText != nil && !camera && context.parsed.isFromCommandLine("--camera-device") {
            throw context.usage("--camera-device only applies with --camera")
        }
        var image: [UInt8]
        let source: String
        let session: SnapshareSession
        switch (sample, file) {
        case (let number?, nil):
            let picked = try SampleLibrary.sample(numberText: number)
            image = try picked.bytes()
            source = "sample \(picked.number) (\(picked.name))"
            session = try context.authenticated()
        case (nil, let path?):
            image = try readPicture(path)
            source = path
            session = try context.authenticated()
        default:
            guard camera else { throw context.usage("choose a picture: --sample N (1-10), --file PATH or --camera") }
            let device = try CameraDevice.parse(deviceText)
            // Logged in first: a lost server is said before the camera is opened.
            session = try context.authenticated()
            image = try takePicture(device: device, context: context)
            source = "the camera (\(device))"
        }
        let welcome = session.welcome
        let limits = welcome.postLimits
        let prepared: PostImage.Prepared
        do { prepared = try PostImage.prepare(image, limits: limits) } catch {
            throw ClientError(error.kind, "cannot post \(source): \(error.message)")
        }
        if let note = SnapPresenter.shrinkNote(prepared, source: source, limits: limits), !context.json { context.console.err(note) }
        var bar = ProgressBar(label: "Posting", console: context.console)
        let bytes = prepared.bytes
        let snap: SnapInfo
        do {
            snap = try session.post(
                feed: feed, image: bytes, progress: bytes.count > 256 * 1024 ? { bar.update(done: $0, total: $1) } : nil)
        } catch {
            // A picture taken cannot be taken again: it is kept for a later `post --file`.
            guard camera, let kept = keep(image) else { throw error }
            throw ClientError(
                error.kind, error.message + "; the camera's picture is kept in \(kept): post it with --file \(kept)",
                serverCode: error.serverCode, remedy: error.remedy)
        }
        if context.json {
            context.printJSON(SnapPresenter.json(snap))
        } else {
            context.console.out(SnapPresenter.posted(snap, source: source))
        }
    }

    /// A picture from `device`: on a terminal the live preview, until Space and Enter (Esc
    /// cancels); in a script the newest frame once a second of frames has passed, for the
    /// camera's exposure to settle (or the last one of a source that ended by itself sooner).
    /// FFmpeg is ended, and the terminal given back, before this returns or throws.
    private static func takePicture(device: CameraDevice, context: CommandContext) throws(ClientError) -> [UInt8] {
        if let screen = try ImageDisplay.prepare(context) {
            defer { screen.session.close() }
            let preview = CameraPreview(
                session: screen.session, depth: screen.depth,
                pictures: screen.choice.pictures, facts: screen.facts,
                device: device, environment: context.environment)
            let frame = try preview.run()
            screen.session.close()
            if let notice = screen.choice.notice { context.console.err(notice) }
            return try frame.jpeg()
        }
        let capture = try CameraCapture(device: device, environment: context.environment)
        defer { capture.stop() }
        var frame = try capture.frame(after: 0)
        let settled = MonotonicClock.milliseconds() + warmUpMilliseconds
        while MonotonicClock.milliseconds() < settled {
            do { frame = try capture.frame(after: frame.number) } catch {
                guard capture.endedByItself, let last = capture.latest else { throw error }
                frame = last
                break
            }
        }
        capture.stop()
        return try frame.jpeg()
    }

    /// Writes a camera picture that could not be posted to the temporary folder (0600); its
    /// path, or nil when it cannot be written.
    private static func keep(_ jpeg: [UInt8]) -> String? {
        let name = "snapshare-camera-\(ThisProcess.id)-\(Int(Date().timeIntervalSince1970)).jpg"
        let path = (NSTemporaryDirectory() as NSString).appendingPathComponent(name)
        guard (try? StagedOutput.write(jpeg, to: path, mode: 0o600)) != nil else { return nil }
        return path
    }

    /// How long a script's camera runs before its picture is taken.
    static let warmUpMilliseconds: Int64 = 1000

    /// The bytes of a picture file, or why they cannot be read.
    private static func readPicture(_ path: String) throws(ClientError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ClientError(.local, "cannot read \(path): no such file (from \(FileManager.default.currentDirectoryPath))")
        }
        guard !isDirectory.boolValue else { throw ClientError(.local, "cannot read \(path): it is a folder, not a picture") }
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason = FileManager.default.isReadableFile(atPath: path) ? "\(error.localizedDescription)" : "permission denied"
            throw ClientError(.local, "cannot read \(path): \(reason)")
        }
    }
}
