import ClassExport
import CommandLineParsing
import Crypto
import Wire

/// admin purge | export | view: the class's stored snaps as a whole, for admins.
enum ClassDataCommands {
    /// `admin purge --older-than 30d`: counts first, asks, then deletes.
    static func purge(_ context: CommandContext) throws(ClientError) {
        guard let span = try context.duration("--older-than", positive: true), let text = context.parsed.string("--older-than") else {
            throw context.usage("say which snaps go with --older-than DURATION, e.g. 30d")
        }
        let session = try context.authenticated()
        let doomed = try session.purge(olderThan: span.milliseconds, dryRun: true)
        guard doomed > 0 else {
            if context.json {
                context.printJSON(.object([("older_than", .string(text)), ("deleted", .int(0))]))
            } else {
                context.console.out("No snap was posted more than \(text) ago; nothing to purge.")
            }
            return
        }
        try context.confirm(
            "Delete the \(doomed) snap\(doomed == 1 ? "" : "s") posted more than \(text) ago, with their pictures and views?")
        let count = try session.purge(olderThan: span.milliseconds, dryRun: false)
        if context.json {
            context.printJSON(.object([("older_than", .string(text)), ("deleted", .int(Int64(count)))]))
        } else {
            context.console.out("Purged \(count) snap\(count == 1 ? "" : "s") posted more than \(text) ago.")
        }
    }

    /// `admin export --to DIR`: every feed's snaps as files, over the protocol, without a view.
    static func export(_ context: CommandContext) throws(ClientError) {
        guard let directory = context.parsed.string("--to") else { throw context.usage("--to names the new folder for the export") }
        // The folder is checked before anything is asked of the server; it gets its name only
        // once the export is complete, so a refusal or a lost connection leaves nothing behind.
        var export: ClassExport
        do { export = try ClassExport(directory: directory) } catch { throw ClientError(.local, "\(error)") }
        let session = try context.authenticated()
        do {
            for feed in try session.feeds().map(\.name).sorted(by: { $0.lowercased() < $1.lowercased() }) { try export.addFeed(feed) }
        } catch let error as ClientError { throw error } catch { throw ClientError(.local, "\(error)") }
        var bar = ProgressBar(label: "Exporting", console: context.console, amount: { "\($0) snaps" })
        var after: UInt64 = 0
        var done = 0
        while true {
            let page = try session.exportSnaps(after: after, includePending: context.parsed.flag("--include-pending"))
            guard let last = page.snaps.last else { break }
            for snap in page.snaps {
                var picture: [UInt8]?
                if snap.pictureKept {
                    do {
                        picture = try session.adminView(snap.id).image
                    } catch let error where error.kind == .expired || error.kind == .notFound {
                        // Erased or deleted since the page was listed: recorded without its picture.
                    }
                }
                do { try export.add(snap, picture: picture) } catch { throw ClientError(.local, "\(error)") }
                done += 1
                bar.update(done: done, total: max(done, Int(page.total)))
            }
            after = last.id
        }
        let summary: ClassExport.Summary
        do { summary = try export.finish(exportedAt: session.welcome.serverTime) } catch { throw ClientError(.local, "\(error)") }
        bar.update(done: done, total: done)
        if context.json {
            context.printJSON(
                .object([
                    ("to", .string(directory)), ("feeds", .int(Int64(summary.feeds))), ("snaps", .int(Int64(summary.snaps))),
                    ("pictures", .int(Int64(summary.pictures))), ("picture_bytes", .int(Int64(summary.pictureBytes))),
                ]))
        } else {
            context.console.out(summaryLine(summary, directory: directory))
        }
    }

    static func summaryLine(_ summary: ClassExport.Summary, directory: String) -> String {
        let snaps = "\(summary.snaps) snap\(summary.snaps == 1 ? "" : "s")"
        return "Exported \(snaps) in \(summary.feeds) feed\(summary.feeds == 1 ? "" : "s") to \(directory) "
            + "(\(summary.pictures) picture\(summary.pictures == 1 ? "" : "s"), \(ByteCount.describe(summary.pictureBytes))); "
            + "open \(directory)/index.html in a browser."
    }

    /// `admin view ID`: any snap full screen, spending no view and leaving no viewer.
    static func view(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let session = try context.authenticated()
        let screen = try ImageDisplay.prepare(context)
        let opened = try session.adminView(id)
        let snap = opened.snap
        let now = session.welcome.serverTime
        let line = "admin-viewed snap \(snap.id) \(snap.width)x\(snap.height) \(opened.image.count) sha256:\(SHA256.hex(opened.sha256))"
        try ImageDisplay.show(
            bytes: opened.image, limits: session.welcome.displayLimits, context: context, screen: screen,
            title: "Snap \(snap.id) from \(PrintableText.clean(snap.poster)) in \(PrintableText.clean(snap.feed)), "
                + TimeAgo.describe(snap.postedAt, now: now) + " (admin view: no view spent)",
            afterwards: "Looked at snap \(snap.id) as an admin; no view was spent and you are not among its viewers.",
            caption: line)
    }
}
