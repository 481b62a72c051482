import Shared

/// How snaps and feeds look in text and in JSON.
enum SnapPresenter {
    static func json(_ snap: SnapInfo) -> JSONValue {
        .object([
            ("id", .int(Int64(snap.id))),
            ("feed", .string(snap.feed)),
            ("poster", .string(snap.poster)),
            ("posted_at", .string(Timestamp.iso8601(snap.postedAt))),
            ("expires_at", .string(Timestamp.iso8601(snap.expiresAt))),
            ("status", .string(snap.state.name)),
            ("format", .string(snap.imageKind.name)),
            ("bytes", .int(Int64(snap.byteCount))),
            ("width", .int(Int64(snap.width))),
            ("height", .int(Int64(snap.height))),
        ])
    }

    static func json(_ feed: FeedInfo) -> JSONValue {
        .object([("id", .int(Int64(feed.id))), ("name", .string(feed.name)),
                 ("snaps", .int(Int64(feed.snapCount))), ("unread", .int(Int64(feed.unreadCount)))])
    }

    /// The marker in the status column: unread snaps stand out.
    static func marker(_ state: SnapState) -> String {
        switch state {
        case .unread: "● unread"
        case .read: "○ read"
        case .sent: "➤ sent"
        }
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
                table.append(["\(snap.id)", snap.poster, TimeAgo.describe(snap.postedAt, now: now), marker(snap.state)])
            }
            text += table.render().split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
            if !text.hasSuffix("\n") { text += "\n" }
        }
        return text
    }
}
