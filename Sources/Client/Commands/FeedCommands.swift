#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Shared

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
        let session = try context.authenticated()
        let name = context.parsed.positional(0)
        let clockOffset = (session.welcome.serverTime) - Timestamp.now()
        guard context.parsed.flag("--watch") else {
            let listing = try session.snaps(feed: name)
            let sections = try sectionNames(listing, name: name, session: session, context: context)
            context.console.raw(render(listing, sections: sections, context: context, now: Timestamp.now() + clockOffset))
            return
        }
        let interval: Double
        if let text = context.parsed.string("--interval") {
            guard let value = Double(text), value >= 0.2, value <= 3600 else {
                throw context.usage("--interval takes seconds between 0.2 and 3600")
            }
            interval = value
        } else {
            interval = 2
        }
        var version = UInt64.max
        var lastDrawn = ""
        while true {
            let poll = try session.poll(knownVersion: version)
            if poll.changed {
                let listing = try session.snaps(feed: name)
                version = listing.version
                // The feed list is fetched again on each change: a feed made or deleted moves the version too.
                let sections = try sectionNames(listing, name: name, session: session, context: context)
                let drawn = render(listing, sections: sections, context: context, now: Timestamp.now() + clockOffset)
                // Redraw only when what the user sees changed.
                if drawn != lastDrawn {
                    lastDrawn = drawn
                    if context.console.outputIsTerminal && !context.json { context.console.raw("\u{1B}[H\u{1B}[2J") }
                    context.console.raw(drawn)
                }
            }
            usleep(useconds_t(interval * 1_000_000))
        }
    }

    /// The feeds a listing is drawn under: the named one, else every feed, empty ones included
    /// (which only the feed list names). JSON has no sections, so it costs no request.
    private static func sectionNames(_ listing: Snaps, name: String?, session: SnapshareSession,
                                     context: CommandContext) throws(ClientError) -> [String] {
        if context.json { return [] }
        if let name { return [listing.snaps.first?.feed ?? name] }
        return try session.feeds().map(\.name)
    }

    /// The listing as printed: one JSON line, or a section per feed in `sections`.
    private static func render(_ listing: Snaps, sections: [String], context: CommandContext, now: Int64) -> String {
        if context.json {
            return JSONValue.array(listing.snaps.map(SnapPresenter.json)).toJSON(pretty: false) + "\n"
        }
        return SnapPresenter.sections(feeds: sections, snaps: listing.snaps, now: now)
    }

    static func post(_ context: CommandContext) throws(ClientError) {
        guard let feed = context.parsed.string("--feed") else { throw context.usage("--feed NAME is required: a snap goes to exactly one feed") }
        let sample = context.parsed.string("--sample")
        let file = context.parsed.string("--file")
        let image: [UInt8]
        let source: String
        switch (sample, file) {
        case (let number?, nil):
            let picked = try SampleLibrary.sample(numberText: number)
            image = try picked.bytes()
            source = "sample \(picked.number) (\(picked.name))"
        case (nil, let path?):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ClientError(.local, "cannot read \(path)")
            }
            image = [UInt8](data)
            source = path
        case (nil, nil):
            throw context.usage("choose a picture: --sample N (1-10) or --file PATH")
        default:
            throw context.usage("give either --sample or --file, not both")
        }
        let session = try context.authenticated()
        let limit = session.welcome.maxImageBytes
        if image.count > Int(limit) {
            throw ClientError(.rejected, "\(source) is \(ByteCount.describe(image.count)); the server accepts at most \(ByteCount.describe(Int(limit)))")
        }
        var bar = ProgressBar(label: "Posting", console: context.console)
        let snap = try session.post(feed: feed, image: image, progress: image.count > 256 * 1024 ? { bar.update(done: $0, total: $1) } : nil)
        if context.json {
            context.printJSON(SnapPresenter.json(snap))
        } else {
            context.console.out("Posted snap \(snap.id) to \(snap.feed) (\(source), \(snap.width)x\(snap.height), \(ByteCount.describe(Int(snap.byteCount)))).")
        }
    }
}
