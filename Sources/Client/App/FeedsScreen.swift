import TerminalUI
import Wire

/// Feeds: one section per feed, each snap a row with poster, age and ● unread / ○ read / ➤ sent.
/// Live: a `FeedWatch` refreshed every second on the network thread (a Poll, and the listing only
/// when it says something changed), expired snaps dropped as their time passes. Enter on an
/// unread snap opens it full screen once; the server refuses a second time.
final class FeedsScreen: AppScreen {
    private enum Row {
        /// A feed's heading, with how many live snaps it has.
        case feed(String, count: Int)
        case snap(SnapInfo)
    }

    private unowned let app: AppModel
    private var watch = FeedWatch(feed: nil, wantsFeedNames: true)
    private var rows: [Row] = []
    /// The selected row: always a snap row when there is one.
    private var cursor = ListCursor()
    private var polling = false
    private var opening = false
    /// The screen row of the first item, as last laid out: a click counts from it.
    private var listTop = 0

    init(app: AppModel) {
        self.app = app
        cursor = ListCursor { [unowned self] index in
            if case .snap = rows[index] { true } else { false }
        }
    }

    private var selected: Int { cursor.selected }

    var keys: KeyTable<FeedsScreen> { Self.snapKeys }

    private static let snapKeys = KeyTable<FeedsScreen>(
        ListCursor.keys(
            \.cursor, slot: { screen, mouse in mouse.row >= screen.listTop ? mouse.row - screen.listTop : nil },
            open: { $0.open() })
            + [
                .init([.key(.enter)], "open an unread snap (once); yours: who opened it") { $0.open() },
                .init([.character("r")], "report the snap to the admins (asks why)") { $0.report() },
                .init([.character("u")], "unsend your snap (asks first), or dismiss a rejected one's notice") { $0.unsend() },
            ])

    private var selectedSnap: SnapInfo? {
        guard rows.indices.contains(selected), case .snap(let snap) = rows[selected] else { return nil }
        return snap
    }

    private func report() {
        guard let snap = selectedSnap else { return }
        guard snap.state != .sent && snap.state != .pending && snap.state != .rejected else {
            app.setStatus("That snap is yours: u unsends it", isError: true)
            return
        }
        app.present(.report(snap.id, app: app))
    }

    private func unsend() {
        guard let snap = selectedSnap else { return }
        if snap.state == .rejected { return dismiss(snap) }
        guard snap.state == .sent || snap.state == .pending else {
            app.setStatus("Only your own snaps can be unsent; r reports someone else's", isError: true)
            return
        }
        app.confirm("Unsend your snap \(snap.id) in \(PrintableText.clean(snap.feed))? It leaves every feed and its picture is erased.") {
            [self] _, finish in
            app.request(
                retry: false, answering: finish, { session throws(ClientError) in try session.unsend(snapID: snap.id) },
                then: { [self] in
                    app.setStatus("Unsent snap \(snap.id)")
                    watch.forget(snap.id)
                    rebuild()
                })
        }
    }

    /// A rejected snap's notice goes from the student's listing (UnsendSnap, protocol 4): nothing
    /// else is left of the snap, so nothing to ask.
    private func dismiss(_ snap: SnapInfo) {
        app.request(
            retry: false, { session throws(ClientError) in try session.unsend(snapID: snap.id) },
            then: { [self] in
                app.setStatus("Dismissed the notice of your rejected snap \(snap.id)")
                watch.forget(snap.id)
                rebuild()
            })
    }

    func activate() { refresh() }

    /// The app acts in another class: what was watched is another class's, so it is all fetched
    /// anew (the new class's change version may equal the old one's).
    func classChanged() {
        watch = FeedWatch(feed: nil, wantsFeedNames: true)
        rows = []
        refresh()
    }

    func tick(now: Int64) {
        refresh()
        // Expiry moves no version: drop what passed its time.
        if rows.contains(where: { if case .snap(let snap) = $0 { snap.expiresAt <= now } else { false } }) { rebuild() }
    }

    /// Refreshes a copy of the watch on the network thread; a copy that found something new
    /// replaces the one shown.
    private func refresh() {
        guard !polling, app.welcome != nil else { return }
        polling = true
        let current = watch
        app.backend.perform(
            retry: true,
            { session throws(ClientError) -> FeedWatch? in
                var refreshed = current
                return try refreshed.refresh(using: session) ? refreshed : nil
            },
            then: { [self] result in
                polling = false
                switch result {
                case .success(nil): break
                case .success(let refreshed?):
                    watch = refreshed
                    rebuild()
                case .failure(let error): app.report(error)
                }
            })
    }

    private func rebuild() {
        let now = app.now
        let selectedID: UInt64? = if rows.indices.contains(selected), case .snap(let snap) = rows[selected] { snap.id } else { nil }
        var grouped: [String: [SnapInfo]] = [:]
        for snap in watch.liveSnaps(now: now) { grouped[snap.feed, default: []].append(snap) }
        rows = []
        let names = watch.feedNames + grouped.keys.filter { !watch.feedNames.contains($0) }.sorted()
        for name in names {
            rows.append(.feed(name, count: grouped[name]?.count ?? 0))
            // Newest first within a feed.
            rows += (grouped[name] ?? []).sorted { $0.postedAt > $1.postedAt }.map(Row.snap)
        }
        cursor.count = rows.count
        cursor.select(rows.firstIndex { if case .snap(let snap) = $0 { snap.id == selectedID } else { false } } ?? 0)
    }

    private func open() {
        guard !opening, rows.indices.contains(selected), case .snap(let snap) = rows[selected] else { return }
        switch snap.state {
        case .read:
            app.setStatus("You already opened this snap: each snap opens once", isError: true)
        case .pending:
            app.setStatus("Your snap awaits an admin's approval; nobody else sees it yet")
        case .rejected:
            app.show(
                .text(
                    title: "An admin rejected your snap in \(PrintableText.clean(snap.feed))",
                    lines: [
                        snap.note.isEmpty ? "No reason was given." : "Why: \(PrintableText.clean(snap.note))",
                        "Nobody else saw it, and its picture is gone. u dismisses this notice.",
                    ]))
        case .sent:
            app.request(
                retry: true, { session throws(ClientError) in try session.snapViews(snap.id) },
                then: { [self] views in
                    let names = views.viewers.map { "\($0.username) · \(TimeAgo.describe($0.viewedAt, now: app.now))" }
                    app.overlay = .text(
                        title: "Your snap in \(snap.feed)", lines: names.isEmpty ? ["Nobody has opened it yet"] : ["Opened by:"] + names)
                })
        case .unread:
            opening = true
            app.setStatus("Opening…")
            // Never retried: a view that reached the server is spent, and the server says so.
            app.backend.perform(
                retry: false, { session throws(ClientError) in try session.open(snapID: snap.id) },
                then: { [self] result in
                    opening = false
                    markRead(snap.id)
                    switch result {
                    case .success(let opened): show(opened.image, of: snap)
                    case .failure(let error): app.report(error)
                    }
                })
        }
    }

    private func show(_ bytes: [UInt8], of snap: SnapInfo) {
        // What matters first, so that it stays in an 80-column window: r, and that closing is for good.
        PictureView.show(
            bytes, describing: "\(snap.poster) · \(snap.feed) · \(TimeAgo.describe(snap.postedAt, now: app.now)) · #\(snap.id)",
            reporting: snap.id, status: "Opened \(snap.poster)'s snap", app: app)
    }

    private func markRead(_ id: UInt64) {
        watch.markRead(id)
        rebuild()
    }

    func layout(in area: Rect) {
        listTop = area.y
        cursor.scrollIntoView(visibleRows: area.height)
    }

    func draw(into grid: inout CellGrid, area: Rect) {
        guard !rows.isEmpty else {
            grid.write(watch.hasListing ? "No feeds yet" : "Loading the feeds…", column: area.x + 1, row: area.y)
            return
        }
        let now = app.now
        // Only the rows on screen are drawn: a feed of 10,000 snaps costs one screenful.
        for index in cursor.visibleItems {
            let row = listTop + index - cursor.firstRow
            switch rows[index] {
            case .feed(let name, let count):
                grid.write(
                    "\(PrintableText.clean(name)) (\(count))", column: area.x + 1, row: row, style: Style(bold: true, underline: true))
            case .snap(let snap):
                let isSelected = index == selected
                let marker =
                    switch snap.state {
                    case .unread: "● unread"
                    case .read: "○ read"
                    case .sent where !snap.isOpenedCountKnown: "➤ sent"
                    case .sent: "➤ sent · opened by \(snap.openedCount)"
                    case .pending: "◌ awaiting approval"
                    case .rejected: "✕ rejected" + (snap.note.isEmpty ? "" : ": \(PrintableText.clean(snap.note))")
                    }
                let style = Style(
                    foreground: snap.state == .unread ? app.decorations.unread : .standard, bold: snap.state == .unread,
                    reverse: isSelected)
                let poster = PrintableText.clean(snap.poster)
                let text =
                    "  " + poster.padding(toLength: max(poster.count, 16), withPad: " ", startingAt: 0)
                    + TimeAgo.describe(snap.postedAt, now: now).padding(toLength: 12, withPad: " ", startingAt: 0) + marker
                let used = grid.write(text, column: area.x + 1, row: row, style: style, width: area.width - 2)
                // The id, dim at the end: what a student quotes when reporting or asking.
                let id = "#\(snap.id)"
                if used + id.count + 3 < area.width {
                    grid.write(
                        id, column: area.x + 1 + used + 2, row: row, style: Style(foreground: app.decorations.faint, reverse: isSelected))
                }
            }
        }
        // What the scroll hides, above and below: a class's feeds outgrow an 80x24 window.
        cursor.drawScrollHints(into: &grid, area: area, top: listTop, style: Style(foreground: app.decorations.faint, bold: true))
    }
}
