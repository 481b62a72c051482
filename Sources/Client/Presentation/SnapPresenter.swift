import Imaging
import JSON
import Wire

/// How snaps and feeds look in text and in JSON.
enum SnapPresenter {
    static func json(_ snap: SnapInfo) -> JSONValue {
        .object([
            ("id", .int(Int64(snap.id))),
            ("feed", .string(snap.feed)),
            ("poster", .string(snap.poster)),
            ("posted_at", .string(Timestamp.iso8601(snap.postedAt))),
            ("expires_at", .string(Timestamp.iso8601(snap.expiresAt))),
            ("state", .string(snap.state.name)),
            ("format", .string(snap.imageKind.name)),
            ("bytes", .int(Int64(snap.byteCount))),
            ("width", .int(Int64(snap.width))),
            ("height", .int(Int64(snap.height))),
            ("opened", snap.state == .sent && snap.isOpenedCountKnown ? .int(Int64(snap.openedCount)) : .null),
            // Why an admin rejected it (state "rejected"); null for every other state.
            ("rejection_reason", snap.state == .rejected ? .string(snap.note) : .null),
        ])
    }

    static func json(_ feed: FeedInfo) -> JSONValue {
        .object([
            ("id", .int(Int64(feed.id))), ("name", .string(feed.name)),
            ("snaps", .int(Int64(feed.snapCount))), ("unread", .int(Int64(feed.unreadCount))),
        ])
    }

    /// What posting said: the snap's id, feed, where the picture came from, its size, and
    /// whether it awaits approval. The command prints it; the app's status line says it.
    static func posted(_ snap: SnapInfo, source: String) -> String {
        let size = "\(snap.width)x\(snap.height), \(ByteCount.describe(Int(snap.byteCount)))"
        return "Posted snap \(snap.id) to \(PrintableText.clean(snap.feed)) (\(source), \(size))."
            + (snap.state == .pending ? " It awaits an admin's approval: only you see it until then." : "")
    }

    /// What was done to a picture too large for the server before it was posted, in a sentence;
    /// nil when it went as it was.
    static func shrinkNote(_ prepared: PostImage.Prepared, source: String, limits: ImageLimits) -> String? {
        guard let shrunk = prepared.shrunk else { return nil }
        let before = "\(shrunk.from.width)x\(shrunk.from.height)"
        let after = "\(shrunk.to.width)x\(shrunk.to.height)"
        if before == after {
            return "Re-encoded \(source) (\(ByteCount.describe(shrunk.from.bytes))) as a \(ByteCount.describe(prepared.bytes.count)) "
                + "JPEG, still \(after), to fit the server's limit of \(ByteCount.describe(limits.maxBytes))."
        }
        return "Shrank \(source) from \(before) (\(ByteCount.describe(shrunk.from.bytes))) to \(after) "
            + "(\(ByteCount.describe(prepared.bytes.count)) JPEG) to fit the server's limits; the aspect ratio is kept."
    }

    /// The marker in the status column: unread snaps stand out; the poster sees how many opened theirs.
    static func marker(_ snap: SnapInfo) -> String {
        switch snap.state {
        case .unread: "● unread"
        case .read: "○ read"
        case .sent where !snap.isOpenedCountKnown: "➤ sent (this server does not count opens)"
        case .sent: snap.openedCount == 0 ? "➤ sent, not opened yet" : "➤ sent, opened by \(snap.openedCount)"
        case .pending: "◌ awaiting an admin's approval (only you see it)"
        case .rejected:
            "✕ rejected by an admin" + (snap.note.isEmpty ? "" : ": \(PrintableText.clean(snap.note))")
                + " (only you see this; snapshare unsend \(snap.id) dismisses it)"
        }
    }

    /// `snapshare snap ID`: the snap, and who opened it with when (`now` is the server's clock).
    static func details(_ views: SnapViews, now: Int64) -> String {
        let snap = views.snap
        var lines = [
            "Snap \(snap.id) in \(PrintableText.clean(snap.feed)) from \(PrintableText.clean(snap.poster))",
            "  posted   \(TimeAgo.describe(snap.postedAt, now: now)) (\(Timestamp.iso8601(snap.postedAt)))",
            "  expires  \(Timestamp.iso8601(snap.expiresAt))",
            "  image    \(snap.imageKind.name.uppercased()), \(snap.width)x\(snap.height), \(ByteCount.describe(Int(snap.byteCount)))",
        ]
        if views.viewers.isEmpty {
            lines.append("Not opened by anyone yet.")
        } else {
            lines.append("Opened by \(views.viewers.count):")
            for viewer in views.viewers {
                lines.append("  \(PrintableText.clean(viewer.username))  \(TimeAgo.describe(viewer.viewedAt, now: now))")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ views: SnapViews) -> JSONValue {
        guard case .object(var fields) = json(views.snap) else { return .null }
        fields.append(
            (
                "viewers",
                .array(
                    views.viewers.map {
                        .object([("username", .string($0.username)), ("viewed_at", .string(Timestamp.iso8601($0.viewedAt)))])
                    })
            ))
        return .object(fields)
    }

    /// One section per feed, in the order given; `now` is the server's clock.
    static func sections(feeds: [String], snaps: [SnapInfo], now: Int64) -> String {
        var text = ""
        for (index, feed) in feeds.enumerated() {
            let rows = snaps.filter { $0.feed == feed }
            let unread = rows.filter { $0.state == .unread }.count
            if index > 0 { text += "\n" }
            text += "\(feed)  (\(rows.count) snap\(rows.count == 1 ? "" : "s"), \(unread) unread)\n"
            if rows.isEmpty {
                text += "  no snaps yet\n"
                continue
            }
            var table = TextTable(columns: [.init("ID", alignment: .right), .init("POSTER"), .init("WHEN"), .init("STATUS")])
            for snap in rows {
                table.append(["\(snap.id)", snap.poster, TimeAgo.describe(snap.postedAt, now: now), marker(snap)])
            }
            text += table.render().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
            if !text.hasSuffix("\n") { text += "\n" }
        }
        return text
    }
}
