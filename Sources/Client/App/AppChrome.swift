import TerminalUI

/// The app's frame: what it shows (the screen with what goes around and over it, a picture on
/// the whole window, the trust screen, or the page a window too small gets) and what goes around
/// the screen: the top row (the tabs, or " Snapshare " over the login form, then who is signed
/// in and the keys that work now), the reconnecting banner under it and the status line at the
/// bottom. Laid out once a frame (`layout`: the banner's lines and where each tab sits, which a
/// click reads), then drawn from that (`draw`), which only reads.
struct AppChrome {
    static let minimumSize = (columns: 80, rows: 24)

    /// The window as last laid out.
    private(set) var size = (columns: 0, rows: 0)
    /// The reconnecting banner: up to three rows under the top row (the reason whole: "is
    /// snapshare-server running at…?" takes three at 80 columns), none while connected.
    private(set) var banner: [String] = []
    /// The tabs of the top row and the columns each takes; none over the login form.
    private(set) var tabs: [(tab: AppTab, columns: Range<Int>)] = []

    var fits: Bool { size.columns >= Self.minimumSize.columns && size.rows >= Self.minimumSize.rows }

    /// Where the screen goes: between the top row with the row under it (or the banner's rows)
    /// and the status line's rows.
    var screenArea: Rect {
        let top = 1 + max(1, banner.count)
        return Rect(x: 0, y: top, width: size.columns, height: size.rows - top - StatusLine.rows)
    }

    /// Where a full-screen picture goes: everything above its caption.
    var pictureArea: Rect { Rect(x: 0, y: 0, width: size.columns, height: size.rows - 1) }

    /// The whole window.
    var window: Rect { Rect(x: 0, y: 0, width: size.columns, height: size.rows) }

    /// Lays out a window of `columns` x `rows` showing `tabs` (nil: the login form) while the
    /// backend's connection is `link`.
    mutating func layout(columns: Int, rows: Int, tabs shown: [AppTab]?, link: AppBackend.Link) {
        size = (columns, rows)
        var at = 0
        tabs = (shown ?? []).map { tab in
            defer { at += tab.label.count + 1 }
            return (tab, at..<at + tab.label.count)
        }
        guard fits else { return }
        if case .reconnecting(let reason) = link {
            banner = TextWrap.lines("reconnecting… (\(PrintableText.clean(reason)))", width: columns - 2, atMost: 3)
        } else {
            banner = []
        }
    }

    /// The tab whose label is at `column` of the top row, as last laid out.
    func tab(atColumn column: Int) -> AppTab? {
        tabs.first { $0.columns.contains(column) }?.tab
    }

    /// What a frame shows.
    enum Shows {
        case tooSmall
        /// The trust screen, for a refused certificate: the whole window.
        case refusal
        case picture(PictureCells, caption: String)
        /// The screen shown, with the chrome around it and the box over it, if any.
        case screen
    }

    /// What `app`'s frame shows, as laid out.
    func shows(_ app: AppModel) -> Shows {
        guard fits else { return .tooSmall }
        if app.trust.refusal != nil { return .refusal }
        if case .picture(let picture, let caption, _)? = app.overlay { return .picture(picture, caption: caption) }
        return .screen
    }

    /// `app`'s frame as last laid out; it only reads, so drawing it again draws the same.
    func draw(_ app: AppModel) -> CellGrid {
        var grid = CellGrid(columns: size.columns, rows: size.rows)
        switch shows(app) {
        case .tooSmall: drawTooSmall(into: &grid)
        case .refusal: app.trust.draw(into: &grid, area: window)
        case .picture(let picture, let caption):
            PictureView.draw(picture, caption: caption, into: &grid, area: pictureArea, pictures: app.pictures, depth: app.depth)
        case .screen:
            drawTop(into: &grid, selected: app.tab, hints: Self.hints(app), colour: app.colour)
            app.current.draw(into: &grid, area: screenArea)
            let error = Style(foreground: app.decorations.error, bold: true)
            if let status = app.visibleStatus { Self.drawStatus(status, into: &grid, style: status.isError ? error : .plain) }
            app.overlay?.drawBox(into: &grid, help: (app.current.keyHelp, app.keys.help), errorStyle: error)
        }
        return grid
    }

    /// The thumbnails of `app`'s frame that go through the kitty protocol, and where: their
    /// cells are left blank. Only kitty's pictures have ids, so only there can a scroll or a
    /// redraw take each away and put it back exactly (`KittyThumbnails`); with sixel and iTerm2,
    /// thumbnails are half blocks.
    func protocolThumbnails(_ app: AppModel) -> [KittyThumbnails.Placement] {
        guard app.pictures == .kitty, case .screen = shows(app) else { return [] }
        return app.current.thumbnails.filter { $0.area.width > 0 && $0.area.height > 0 }
    }

    /// `app`'s full-screen picture when it goes through a graphics protocol, and where: the loop
    /// sends it after the cells (`AppRunner`).
    func protocolPicture(_ app: AppModel) -> (picture: PictureCells, area: Rect)? {
        guard app.pictures != .halfblock, case .picture(let picture, _) = shows(app) else { return nil }
        return (picture, pictureArea)
    }

    /// Who is signed in, then the keys that work now (F1 and Ctrl-C while a field takes the
    /// typing, where ? and q are letters; Ctrl-C alone over a dialog).
    private static func hints(_ app: AppModel) -> [String] {
        let keys =
            if case .dialog? = app.overlay { ["Ctrl-C quit"] } else if app.current.isTyping { ["F1 keys", "Ctrl-C quit"] } else {
                ["? keys", "q quit"]
            }
        let dot = app.signIn.otherClassesUnread ? " ●" : ""
        let who = app.username.map { PrintableText.clean($0) + (app.className.map { " in " + PrintableText.clean($0) + dot } ?? "") }
        return [who].compactMap { $0 } + keys
    }

    /// The top row's highlight: the tab shown, " Snapshare ".
    static func accent(colour: Bool) -> Style {
        colour ? Style(foreground: .indexed(0), background: .indexed(45), bold: true) : Style(bold: true, reverse: true)
    }

    /// The top row and the banner: the tabs with `selected` highlighted (" Snapshare " over the
    /// form), then `hints` at the right end, within the room left: the keys go first, then
    /// the name (`hints[0]`) is shortened.
    private func drawTop(into grid: inout CellGrid, selected: AppTab, hints: [String], colour: Bool) {
        var at = 0
        if tabs.isEmpty {
            at = grid.write(" Snapshare ", column: 0, row: 0, style: Self.accent(colour: colour))
        } else {
            for (tab, columns) in tabs {
                at = columns.upperBound + 1
                grid.write(
                    tab.label, column: columns.lowerBound, row: 0,
                    style: tab == selected ? Self.accent(colour: colour) : Style(underline: true))
            }
        }
        let room = grid.columns - at - 2
        var parts = hints
        while parts.count > 1 && DisplayWidth.of(parts.joined(separator: " · ")) > room { parts.removeLast() }
        let right = TextWrap.shortened(parts.joined(separator: " · "), width: max(0, room))
        grid.write(right, column: grid.columns - DisplayWidth.of(right) - 1, row: 0)
        let style = colour ? Style(foreground: .indexed(0), background: .indexed(214)) : Style(reverse: true)
        for (index, line) in banner.enumerated() {
            grid.fill(columns: 0..<grid.columns, rows: 1 + index..<2 + index, style: style)
            grid.write(line, column: 1, row: 1 + index, style: style, width: grid.columns - 2)
        }
    }

    /// The status line in its two rows at the bottom, wrapped; one too long for them was shown
    /// whole in a box, and ends here at a word.
    private static func drawStatus(_ status: StatusLine, into grid: inout CellGrid, style: Style) {
        let lines = TextWrap.lines(status.text, width: grid.columns - 2, atMost: StatusLine.rows)
        for (index, line) in lines.enumerated() {
            grid.write(line, column: 1, row: grid.rows - lines.count + index, style: style, width: grid.columns - 2)
        }
    }

    /// What a window smaller than `minimumSize` shows instead of the app.
    private func drawTooSmall(into grid: inout CellGrid) {
        let (columns, rows) = size
        let lines = [
            "Make the window larger", "Snapshare needs at least \(Self.minimumSize.columns)x\(Self.minimumSize.rows);",
            "this one is \(columns)x\(rows).", "q quits",
        ]
        for (index, line) in lines.enumerated() {
            grid.write(line, column: max(0, (columns - line.count) / 2), row: max(0, rows / 2 - 2) + index)
        }
    }
}
