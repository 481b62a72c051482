import Imaging
import TerminalUI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Shows one image on the whole terminal until a key is pressed, then puts the terminal back.
///
/// The terminal is a `TerminalSession`, so it is restored on every way out: a key, a thrown
/// error, and SIGTERM/SIGHUP/SIGINT, which arrive on the session's signal pipe and end the
/// process by the same signal once the terminal is back. A resize or a suspend redraws, sized
/// for the terminal as it is then (its cells and sixel limit asked again). In raw mode Ctrl-C
/// arrives as a key (ISIG is off) and simply closes the view.
///
/// Half blocks are drawn as the app draws them: `PictureCells` into a `CellGrid`, put on the
/// terminal by a `ScreenWriter`, so a picture looks the same in the app, in `view` and in
/// `post --camera`.
struct FullScreenImageView: Sendable {
    /// What is shown.
    let image: RGBImage
    /// Where it is shown and keys are read.
    let terminal: Terminal
    /// How many colours half blocks are drawn with.
    let depth: ColorDepth
    /// One line under the picture (what it is, and that any key closes), or nil for none.
    let caption: String?

    /// A view of `image` on `terminal` (standard input and output by default).
    init(image: RGBImage, terminal: Terminal = Terminal(), depth: ColorDepth = .trueColor, caption: String? = nil) {
        self.image = image
        self.terminal = terminal
        self.depth = depth
        self.caption = caption
    }

    /// Shows the image and waits for a key; returns the key's events (empty if input closed).
    @discardableResult
    func show() throws(Terminal.Failure) -> [InputEvent] {
        guard Terminal.isTerminal(terminal.input), Terminal.isTerminal(terminal.output) else {
            throw Terminal.Failure(operation: "open (not a terminal)", code: ENOTTY)
        }
        let session = try TerminalSession(terminal: terminal)
        defer { session.close() }
        try session.start()
        return try show(in: session, pictures: .halfblock, facts: TerminalFacts())
    }

    /// Shows the image in `session` (started) until a key, drawn with `pictures`; a protocol
    /// picture is sized with the cells `facts` give, and again after a resize.
    func show(in session: TerminalSession, pictures: PictureProtocol, facts: TerminalFacts) throws(Terminal.Failure) -> [InputEvent] {
        defer { if pictures == .kitty { try? session.terminal.write(PictureEscapes.kittyDeleteAll) } }
        return try session.showUntilInput(facts: facts, asking: pictures != .halfblock) { columns, rows, facts in
            switch screen(columns: columns, rows: rows, pictures: pictures, facts: facts) {
            case .cells(let grid):
                var writer = ScreenWriter(depth: depth)
                return writer.frame(grid)
            case .escapes(let bytes):
                return bytes
            }
        }
    }

    /// A whole screen: cells, or a picture's escapes with the caption.
    enum Screen {
        /// Half blocks and the caption, for a `ScreenWriter`.
        case cells(CellGrid)
        /// A graphics protocol's picture (a kitty picture shown before deleted first) and the caption line.
        case escapes([UInt8])
    }

    /// The whole screen, `columns` x `rows` cells: the caption on the last row and the picture
    /// above it drawn with `pictures`, sized with the cells `facts` and the terminal's current
    /// pixel size give; half blocks when the protocol cannot draw it.
    func screen(columns: Int, rows: Int, pictures: PictureProtocol, facts: TerminalFacts) -> Screen {
        var facts = facts
        if let pixels = Terminal.pixelSize(of: terminal.output) { facts.window = pixels }
        guard
            let picture = PictureCells(image).escapes(
                pictures, area: pictureArea(columns: columns, rows: rows),
                on: PictureTerminal(facts, columns: columns, rows: rows))
        else {
            return .cells(grid(columns: columns, rows: rows))
        }
        let clear = pictures == .kitty ? PictureEscapes.kittyDeleteAll : []
        return .escapes(clear + Self.captionLine(caption, columns: columns, rows: rows) + picture)
    }

    /// The screen in half blocks: the picture above the caption, drawn by `PictureCells` as the
    /// app draws it, and the caption, shortened at a word to the width and centred, on the last row.
    func grid(columns: Int, rows: Int) -> CellGrid {
        var grid = CellGrid(columns: columns, rows: rows)
        PictureCells(image).draw(into: &grid, area: pictureArea(columns: columns, rows: rows), depth: depth)
        if let caption, rows > 1 {
            let shown = Self.shortenedCaption(caption, columns: columns)
            grid.write(shown, column: max(0, (columns - DisplayWidth.of(shown)) / 2), row: rows - 1)
        }
        return grid
    }

    /// Where the picture goes: everything above the caption.
    private func pictureArea(columns: Int, rows: Int) -> Rect {
        Rect(x: 0, y: 0, width: columns, height: caption == nil ? rows : max(1, rows - 1))
    }

    private static func shortenedCaption(_ caption: String, columns: Int) -> String {
        TextWrap.shortened(PrintableText.clean(caption), width: columns)
    }

    /// `caption`, shortened at a word to the width and centred, on the last row (nothing without one).
    private static func captionLine(_ caption: String?, columns: Int, rows: Int) -> [UInt8] {
        guard let caption, rows > 1 else { return [] }
        let shown = shortenedCaption(caption, columns: columns)
        let pad = max(0, (columns - DisplayWidth.of(shown)) / 2)
        return Array("\u{1B}[\(rows);1H\u{1B}[2K".utf8) + Array((String(repeating: " ", count: pad) + shown).utf8)
    }
}
