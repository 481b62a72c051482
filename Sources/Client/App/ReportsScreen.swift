import TerminalUI
import Wire

/// Reports (admins only): the snaps awaiting approval, then the reported snaps, oldest first,
/// each with its poster, feed, reasons and reporters. Enter looks at the picture without spending
/// a view; the other keys approve, reject, dismiss or delete, optionally suspending the poster.
/// Refreshed when shown and every five seconds.
final class ReportsScreen: AppScreen {
    private enum Row {
        case heading(String)
        case pending(ExportedSnap)
        case reported(ReportedSnap)

        var snapID: UInt64? {
            switch self {
            case .heading: nil
            case .pending(let snap): snap.id
            case .reported(let snap): snap.snapID
            }
        }
    }

    private unowned let app: AppModel
    private var rows: [Row] = []
    private var cursor = ListCursor()
    private var loading = false
    private var loaded = false
    private var lastLoad: Int64 = 0
    private var listTop = 0

    /// How long `s` suspends a poster.
    static let suspension: Int64 = 7 * 86_400_000

    init(app: AppModel) {
        self.app = app
        cursor = ListCursor { [unowned self] index in rows[index].snapID != nil }
    }

    var keys: KeyTable<ReportsScreen> { Self.keys }

    private static let keys = KeyTable<ReportsScreen>(
        ListCursor.keys(
            \.cursor, slot: { screen, mouse in mouse.row >= screen.listTop ? mouse.row - screen.listTop : nil },
            open: { $0.look() })
            + [
                .init([.key(.enter), .character("v")], "look at the picture (no view is spent)") { $0.look() },
                .init([.character("a")], "approve a snap awaiting approval") { $0.approve() },
                .init([.character("d")], "dismiss the reports (the snap stays)") { $0.resolve(.dismiss, suspend: false) },
                .init([.character("x")], "delete the snap (a reported one, or reject one awaiting approval)") { $0.delete() },
                .init([.character("s")], "delete the reported snap and suspend its poster for 7 days") {
                    $0.resolve(.delete, suspend: true)
                },
                .init([.character("g")], "refresh") { $0.load() },
            ])

    func activate() { load() }

    func tick(now: Int64) {
        if now - lastLoad >= 5_000 { load() }
    }

    private var selectedRow: Row? { rows.indices.contains(cursor.selected) ? rows[cursor.selected] : nil }

    private func load() {
        guard !loading, app.isAdmin else { return }
        loading = true
        lastLoad = app.now
        app.backend.perform(
            retry: true, { session throws(ClientError) in (try session.pending(), try session.reports()) },
            then: { [self] result in
                loading = false
                switch result {
                case .success(let (pending, reported)):
                    loaded = true
                    let selectedID = selectedRow?.snapID
                    rows = []
                    if !pending.isEmpty { rows += [.heading("Awaiting approval (\(pending.count))")] + pending.map(Row.pending) }
                    if !reported.isEmpty { rows += [.heading("Reported (\(reported.count))")] + reported.map(Row.reported) }
                    cursor.count = rows.count
                    cursor.select(rows.firstIndex { $0.snapID == selectedID } ?? 0)
                case .failure(let error):
                    app.report(error)
                }
            })
    }

    /// The picture, full screen, through AdminViewSnap: no view spent, not among the viewers.
    private func look() {
        guard let id = selectedRow?.snapID else { return }
        app.setStatus("Loading snap \(id)…")
        app.request(
            retry: true, { session throws(ClientError) in try session.adminView(id) },
            then: { [self] opened in
                PictureView.show(
                    opened.image, describing: "Snap \(id) from \(opened.snap.poster) in \(opened.snap.feed) · admin view: no view spent",
                    status: "Looked at snap \(id) (no view spent)", app: app)
            })
    }

    private func approve() {
        guard case .pending(let snap)? = selectedRow else {
            app.setStatus("a approves a snap awaiting approval", isError: true)
            return
        }
        app.request(
            retry: false, { session throws(ClientError) in try session.approve(snapID: snap.id, true) },
            then: { [self] in
                app.setStatus("Approved snap \(snap.id): everyone sees it now")
                load()
            })
    }

    private func delete() {
        switch selectedRow {
        case .pending(let snap)?:
            app.confirm("Reject snap \(snap.id) from \(PrintableText.clean(snap.poster))? It is deleted with its picture.") {
                [self] _, finish in
                app.request(
                    retry: false, answering: finish, { session throws(ClientError) in try session.approve(snapID: snap.id, false) },
                    then: { [self] in
                        app.setStatus("Rejected snap \(snap.id)")
                        load()
                    })
            }
        case .reported?: resolve(.delete, suspend: false)
        default: break
        }
    }

    private func resolve(_ resolution: ReportResolution, suspend: Bool) {
        guard case .reported(let snap)? = selectedRow else {
            app.setStatus("d, x and s act on a reported snap", isError: true)
            return
        }
        let poster = PrintableText.clean(snap.poster)
        let what =
            resolution == .dismiss
            ? "Dismiss the reports of snap \(snap.snapID)? The snap stays."
            : "Delete snap \(snap.snapID) from \(poster)\(suspend ? " and suspend \(poster) for 7 days" : "")?"
        app.confirm(what) { [self] _, finish in
            app.request(
                retry: false, answering: finish,
                { session throws(ClientError) in
                    try session.resolveReport(snapID: snap.snapID, resolution, suspendFor: suspend ? Self.suspension : 0)
                },
                then: { [self] in
                    app.setStatus(
                        resolution == .dismiss
                            ? "Dismissed the reports of snap \(snap.snapID)"
                            : "Deleted snap \(snap.snapID)\(suspend ? "; \(poster) is suspended for 7 days" : "")")
                    load()
                })
        }
    }

    func layout(in area: Rect) {
        listTop = area.y
        cursor.scrollIntoView(visibleRows: area.height)
    }

    func draw(into grid: inout CellGrid, area: Rect) {
        guard !rows.isEmpty else {
            grid.write(loaded ? "Nothing awaits approval and no snap is reported" : "Loading…", column: area.x + 1, row: area.y)
            return
        }
        let now = app.now
        for index in cursor.visibleItems {
            let row = listTop + index - cursor.firstRow
            let isSelected = index == cursor.selected
            let text: String
            switch rows[index] {
            case .heading(let title):
                grid.write(title, column: area.x + 1, row: row, style: Style(bold: true, underline: true))
                continue
            case .pending(let snap):
                text = "  #\(snap.id)  \(snap.poster) in \(snap.feed) · \(TimeAgo.describe(snap.postedAt, now: now)) · awaiting approval"
            case .reported(let snap):
                let reasons = snap.reports.map { "\($0.reporter): \($0.reason)" }.joined(separator: "; ")
                let reported = TimeAgo.describe(snap.reports.first?.reportedAt ?? snap.postedAt, now: now)
                text = "  #\(snap.snapID)  \(snap.poster) in \(snap.feed) · reported \(reported) · \(reasons)"
            }
            grid.write(PrintableText.clean(text), column: area.x + 1, row: row, style: Style(reverse: isSelected), width: area.width - 2)
        }
        cursor.drawScrollHints(into: &grid, area: area, top: listTop, style: Style(foreground: app.decorations.faint, bold: true))
    }
}
