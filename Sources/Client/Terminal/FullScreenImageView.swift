import TerminalUI
import Imaging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Shows one image on the whole terminal until a key is pressed, then puts the terminal back.
///
/// The terminal is a `TerminalSession`, so it is restored on every way out: a key, a thrown
/// error, and SIGTERM/SIGHUP/SIGINT, which arrive on the session's signal pipe and end the
/// process by the same signal once the terminal is back. A resize or a suspend redraws. In raw
/// mode Ctrl-C arrives as a key (ISIG is off) and simply closes the view.
public struct FullScreenImageView: Sendable {
    /// What is shown.
    public let image: RGBImage
    /// Where it is shown and keys are read.
    public let terminal: Terminal
    /// How pixels become cells.
    public let renderer: HalfBlockRenderer
    /// One line under the picture (what it is, and that any key closes), or nil for none.
    public let caption: String?

    /// A view of `image` on `terminal` (standard input and output by default).
    public init(image: RGBImage, terminal: Terminal = Terminal(), renderer: HalfBlockRenderer = HalfBlockRenderer(),
                caption: String? = nil) {
        self.image = image
        self.terminal = terminal
        self.renderer = renderer
        self.caption = caption
    }

    /// Shows the image and waits for a key; returns the key's events (empty if input closed).
    @discardableResult
    public func show() throws(Terminal.Failure) -> [InputEvent] {
        guard Terminal.isTerminal(terminal.input), Terminal.isTerminal(terminal.output) else {
            throw Terminal.Failure(operation: "open (not a terminal)", code: ENOTTY)
        }
        let session = try TerminalSession(terminal: terminal)
        defer { session.close() }
        try session.start()
        return try show(in: session, pictures: .halfblock, facts: TerminalFacts())
    }

    /// Shows the image in `session` (started) until a key, drawn with `pictures`; a protocol
    /// picture is sized with the cells `facts` give.
    public func show(in session: TerminalSession, pictures: PictureProtocol, facts: TerminalFacts) throws(Terminal.Failure) -> [InputEvent] {
        defer { if pictures == .kitty { try? session.terminal.write(PictureEscapes.kittyDeleteAll) } }
        return try session.showUntilInput { columns, rows in screen(columns: columns, rows: rows, pictures: pictures, facts: facts) }
    }

    /// The bytes of the whole screen, `columns` x `rows` cells: the caption on the last row and
    /// the picture above it drawn with `pictures` (a kitty picture shown before deleted first),
    /// sized with the cells `facts` and the terminal's current pixel size give; half blocks when
    /// the protocol cannot draw it.
    func screen(columns: Int, rows: Int, pictures: PictureProtocol, facts: TerminalFacts) -> [UInt8] {
        let area = Rect(x: 0, y: 0, width: columns, height: caption == nil ? rows : max(1, rows - 1))
        var facts = facts
        if let pixels = Terminal.pixelSize(of: terminal.output) { facts.window = pixels }
        guard let picture = PictureCells(image).escapes(pictures, area: area, on: PictureTerminal(facts, columns: columns, rows: rows)) else {
            return frame(columns: columns, rows: rows)
        }
        return (pictures == .kitty ? PictureEscapes.kittyDeleteAll : []) + Self.captionLine(caption, columns: columns, rows: rows) + picture
    }

    /// The bytes of one full-screen frame: every row positioned explicitly, so nothing scrolls;
    /// the caption, shortened at a word to the width, on the last row.
    func frame(columns: Int, rows: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        let pictureRows = caption == nil ? rows : max(1, rows - 1)
        for (index, line) in renderer.render(image, columns: columns, rows: pictureRows).enumerated() {
            bytes += Array("\u{1B}[\(index + 1);1H".utf8)
            bytes += Array(line.utf8)
        }
        return bytes + Self.captionLine(caption, columns: columns, rows: rows)
    }

    /// `caption`, shortened at a word to the width and centred, on the last row (nothing without one).
    static func captionLine(_ caption: String?, columns: Int, rows: Int) -> [UInt8] {
        guard let caption, rows > 1 else { return [] }
        let shown = TextWrap.shortened(PrintableText.clean(caption), width: columns)
        let pad = max(0, (columns - DisplayWidth.of(shown)) / 2)
        return Array("\u{1B}[\(rows);1H\u{1B}[2K".utf8) + Array((String(repeating: " ", count: pad) + shown).utf8)
    }
}
