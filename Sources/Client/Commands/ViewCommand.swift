import Crypto

/// view SNAP_ID: the one viewing of a snap.
enum ViewCommand {
    static func run(_ context: CommandContext) throws(ClientError) {
        // Checked before anything is sent: the one view must never be spent on output that
        // shows no picture.
        if context.json {
            throw context.usage(
                "view has no --json: it would spend your one view of the snap without showing it; "
                    + "use `snapshare feed --json` for snap details and `snapshare snap ID --json` for your own")
        }
        let id = try context.identifier(0, "SNAP_ID")
        let session = try context.authenticated()
        // How it will be drawn is settled before the view is spent.
        let screen = try ImageDisplay.prepare(context)
        let opened = try session.open(snapID: id)
        let snap = opened.snap
        let now = session.welcome.serverTime
        let about =
            "snap \(snap.id) from \(PrintableText.clean(snap.poster)) in \(PrintableText.clean(snap.feed)) "
            + "(\(TimeAgo.describe(snap.postedAt, now: now)))"
        let line = "viewed snap \(snap.id) \(snap.width)x\(snap.height) \(opened.image.count) sha256:\(SHA256.hex(opened.sha256))"
        try ImageDisplay.show(
            bytes: opened.image, limits: session.welcome.displayLimits, context: context, screen: screen,
            title: "Snap \(snap.id) from \(PrintableText.clean(snap.poster)) in \(PrintableText.clean(snap.feed)), "
                + TimeAgo.describe(snap.postedAt, now: now) + " (your one view)",
            afterwards: "Viewed " + about + "; it cannot be opened again.", caption: line)
    }
}
