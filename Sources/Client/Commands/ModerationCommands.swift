import CommandLineParsing
import Wire

/// report | unsend | admin reports | resolve | suspend | unsuspend.
enum ModerationCommands {
    static func report(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let reason = try context.reason(missing: "say what is wrong with the snap: --reason TEXT")
        let session = try context.authenticated()
        try session.report(snapID: id, reason: reason)
        if context.json {
            context.printJSON(.object([("reported", .int(Int64(id)))]))
        } else {
            context.console.out("Reported snap \(id) to the admins; thank you. Only they see who reported it.")
        }
    }

    static func unsend(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let session = try context.authenticated()
        try context.confirm("Take back snap \(id)? It leaves every feed and its picture is erased.")
        try session.unsend(snapID: id)
        if context.json { context.printJSON(.object([("unsent", .int(Int64(id)))])) } else { context.console.out("Unsent snap \(id).") }
    }

    static func reports(_ context: CommandContext) throws(ClientError) {
        let session = try context.authenticated()
        let pending = try session.pending()
        let snaps = try session.reports()
        if context.json {
            context.printJSON(
                .object([
                    (
                        "awaiting_approval",
                        .array(
                            pending.map { snap in
                                .object([
                                    ("snap", .int(Int64(snap.id))), ("feed", .string(snap.feed)), ("poster", .string(snap.poster)),
                                    ("posted_at", .string(Timestamp.iso8601(snap.postedAt))),
                                ])
                            })
                    ),
                    (
                        "reported",
                        .array(
                            snaps.map { snap in
                                .object([
                                    ("snap", .int(Int64(snap.snapID))), ("feed", .string(snap.feed)), ("poster", .string(snap.poster)),
                                    ("posted_at", .string(Timestamp.iso8601(snap.postedAt))),
                                    ("expires_at", .string(Timestamp.iso8601(snap.expiresAt))),
                                    ("picture_kept", .bool(snap.pictureKept)),
                                    (
                                        "reports",
                                        .array(
                                            snap.reports.map {
                                                .object([
                                                    ("reporter", .string($0.reporter)), ("reason", .string($0.reason)),
                                                    ("reported_at", .string(Timestamp.iso8601($0.reportedAt))),
                                                ])
                                            })
                                    ),
                                ])
                            })
                    ),
                ]))
            return
        }
        let now = Timestamp.now()
        if !pending.isEmpty {
            context.console.out("Awaiting approval (`snapshare admin approve ID` or `reject ID`):")
            var table = TextTable(columns: [.init("SNAP", alignment: .right), .init("FEED"), .init("POSTER"), .init("POSTED")])
            for snap in pending {
                table.append([
                    "\(snap.id)", PrintableText.clean(snap.feed), PrintableText.clean(snap.poster),
                    TimeAgo.describe(snap.postedAt, now: now),
                ])
            }
            context.console.raw(table.render() + "\n")
        }
        guard !snaps.isEmpty else {
            context.console.out(pending.isEmpty ? "No open reports and nothing awaiting approval." : "No open reports.")
            return
        }
        if !pending.isEmpty { context.console.out("Reported:") }
        var table = TextTable(columns: [
            .init("SNAP", alignment: .right), .init("FEED"), .init("POSTER"), .init("REPORTED"),
            .init("BY"), .init("REASONS"),
        ])
        for snap in snaps {
            table.append([
                "\(snap.snapID)", PrintableText.clean(snap.feed), PrintableText.clean(snap.poster),
                TimeAgo.describe(snap.reports.first?.reportedAt ?? snap.postedAt, now: now),
                snap.reports.map { PrintableText.clean($0.reporter) }.joined(separator: ", "),
                snap.reports.map { PrintableText.clean($0.reason) }.joined(separator: "; "),
            ])
        }
        context.console.raw(table.render() + "\n")
        context.console.out(
            "Look with `snapshare admin view ID` (no view spent); then `snapshare admin resolve ID --dismiss` or `--delete`.")
    }

    static func approve(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let session = try context.authenticated()
        try session.approve(snapID: id, true)
        context.console.out("Approved snap \(id): everyone sees it now.")
    }

    static func reject(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let reason = try context.reason(missing: nil)
        let session = try context.authenticated()
        try session.approve(snapID: id, false, reason: reason)
        context.console.out(
            "Rejected snap \(id): its picture is deleted, and its poster sees that it was rejected"
                + (reason.isEmpty ? " (no reason given)." : ", and why."))
    }

    static func resolve(_ context: CommandContext) throws(ClientError) {
        let id = try context.identifier(0, "SNAP_ID")
        let dismiss = context.parsed.flag("--dismiss")
        let delete = context.parsed.flag("--delete")
        guard dismiss != delete else { throw context.usage("give exactly one of --dismiss (the snap stays) or --delete (the snap goes)") }
        let suspendFor = try context.duration("--suspend-poster", positive: true)?.milliseconds ?? 0
        let session = try context.authenticated()
        try session.resolveReport(snapID: id, delete ? .delete : .dismiss, suspendFor: suspendFor)
        let suspended = suspendFor > 0 ? "; its poster is suspended for \(TimeSpan(milliseconds: suspendFor))" : ""
        context.console.out(
            delete ? "Deleted snap \(id) and closed its reports\(suspended)." : "Dismissed the reports of snap \(id)\(suspended).")
    }

    static func suspend(_ context: CommandContext) throws(ClientError) {
        let user = try context.username(0)
        guard let span = try context.duration("--for", positive: true), let text = context.parsed.string("--for") else {
            throw context.usage("say for how long with --for DURATION, e.g. 7d")
        }
        let reason = try context.reason(missing: "say why with --reason TEXT (the student sees it)")
        let session = try context.authenticated()
        try session.suspend(user, for: span.milliseconds, reason: reason)
        context.console.out("Suspended \(user) for \(text): they can log in and open snaps, but not post, drop pins or report.")
    }

    static func disable(_ context: CommandContext) throws(ClientError) {
        let user = try context.username(0)
        let session = try context.authenticated()
        try session.setDisabled(user, true)
        context.console.out(
            "Disabled \(user): their sessions ended and their logins are refused; the name stays taken (`admin enable \(user)` undoes it).")
    }

    static func enable(_ context: CommandContext) throws(ClientError) {
        let user = try context.username(0)
        let session = try context.authenticated()
        try session.setDisabled(user, false)
        context.console.out("Enabled \(user): they may log in again.")
    }

    static func rename(_ context: CommandContext) throws(ClientError) {
        let old = try context.username(0, argument: "OLD")
        let new = try context.username(1, argument: "NEW")
        let session = try context.authenticated()
        try session.rename(old, to: new)
        context.console.out("Renamed \(old) to \(new); their sessions carry on, and they log in as \(new) from now on.")
    }

    static func deleteUser(_ context: CommandContext) throws(ClientError) {
        let user = try context.username(0)
        let session = try context.authenticated()
        try context.confirm("Delete the account \(PrintableText.clean(user)) with all their snaps, views, pins, albums and movies?")
        try session.deleteUser(user)
        context.console.out("Deleted \(user) and everything theirs; their roster name, if they had one, is off the roster.")
    }

    static func unsuspend(_ context: CommandContext) throws(ClientError) {
        let user = try context.username(0)
        let session = try context.authenticated()
        try session.unsuspend(user)
        context.console.out("\(user) may post again.")
    }
}
