/// A size in pixels.
public struct PixelSize: Sendable, Equatable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// What a terminal says of itself when asked: how large its cells are in pixels, which picture
/// protocols it really shows, its name and version, how many colour registers its sixels have,
/// and its background colour. Each is nil (or false) until an answer says otherwise.
///
/// The questions go out together with the primary device attributes request (DA1) last: every
/// terminal answers DA1, and answers in order, so its reply means there is nothing more to wait
/// for (`TerminalSession.probe`). A terminal that does not know a question stays silent.
public struct TerminalFacts: Sendable, Equatable {
    /// One cell in pixels (`CSI 16 t`, or the text area divided by the cells).
    public var cell: PixelSize?
    /// The text area in pixels (`CSI 14 t`, or the pixel fields of TIOCGWINSZ).
    public var window: PixelSize?
    /// The DA1 reply lists sixel graphics.
    public var sixel = false
    /// The kitty graphics query was answered OK.
    public var kittyGraphics = false
    /// The name and version from XTVERSION, e.g. "XTerm(379)" or "kitty(0.26.5)".
    public var version: String?
    /// The number of sixel colour registers (XTSMGRAPHICS).
    public var colorRegisters: Int?
    /// The largest sixel picture the terminal takes (XTSMGRAPHICS).
    public var sixelLimit: PixelSize?
    /// The background colour (OSC 11), 8 bits a channel.
    public var background: (red: UInt8, green: UInt8, blue: UInt8)?
    /// The DA1 reply came: the terminal listened and answered.
    public var answered = false

    public init() {}

    public static func == (a: TerminalFacts, b: TerminalFacts) -> Bool {
        a.cell == b.cell && a.window == b.window && a.sixel == b.sixel && a.kittyGraphics == b.kittyGraphics
            && a.version == b.version && a.colorRegisters == b.colorRegisters && a.sixelLimit == b.sixelLimit
            && a.background.map { [$0.red, $0.green, $0.blue] } == b.background.map { [$0.red, $0.green, $0.blue] }
            && a.answered == b.answered
    }

    /// The image id of the kitty support query; its reply names it.
    static let kittyQueryID = 31

    /// The questions, DA1 last. `kitty`: include the kitty graphics query (left out inside tmux,
    /// where an APC it does not pass on becomes the pane's title).
    public static func query(kitty: Bool) -> [UInt8] {
        var text = "\u{1B}[16t\u{1B}[14t\u{1B}[>0q\u{1B}[?1;1;0S\u{1B}[?2;1;0S\u{1B}]11;?\u{1B}\\"
        if kitty { text += "\u{1B}_Gi=\(kittyQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" }
        return Array((text + "\u{1B}[c").utf8)
    }

    /// What a resize may change, asked again after one: the cell size (the font may change with
    /// the window) and the largest sixel, which xterm bounds by its window's pixels, so that the
    /// limit it gave at the start would keep pictures at the old window's size.
    public static let resizeQuery = Array("\u{1B}[16t\u{1B}[?2;1;0S".utf8)

    /// The answers that decide how large a protocol picture is drawn: when they change, pictures
    /// shown are drawn again.
    public var pictureSizing: [PixelSize?] { [cell, sixelLimit] }

    /// Takes in one reply (a whole escape sequence as the terminal sent it); false when `bytes`
    /// answers none of the questions (a key, say).
    @discardableResult
    public mutating func absorb(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        if let csi = Self.strip(text, prefix: "\u{1B}[", suffixLength: 0) {
            return absorbCSI(csi)
        }
        if let version = Self.strip(text, prefix: "\u{1B}P>|", suffixLength: 2), text.hasSuffix("\u{1B}\\") {
            self.version = String(version.prefix(80))
            return true
        }
        if text.hasPrefix("\u{1B}]11;") {
            let body = text.dropFirst(5).prefix { $0 != "\u{1B}" && $0 != "\u{07}" }
            guard let colour = Self.colour(String(body)) else { return false }
            background = colour
            return true
        }
        if text.hasPrefix("\u{1B}_G"), let semicolon = text.firstIndex(of: ";") {
            let keys = text[text.index(text.startIndex, offsetBy: 3)..<semicolon].split(separator: ",")
            guard keys.contains("i=\(Self.kittyQueryID)") else { return false }
            kittyGraphics = text[text.index(after: semicolon)...].hasPrefix("OK")
            return true
        }
        return false
    }

    /// Whether the background is light (its luminance over half), when the terminal said it.
    public var lightBackground: Bool? {
        background.map { 299 * Int($0.red) + 587 * Int($0.green) + 114 * Int($0.blue) > 128_000 }
    }

    /// The cell size to draw pictures with: the one the terminal gave, else the text area over the
    /// cells, else nil.
    public func cellSize(columns: Int, rows: Int) -> PixelSize? {
        if let cell, cell.width > 0, cell.height > 0 { return cell }
        if let window, columns > 0, rows > 0, window.width >= columns, window.height >= rows {
            return PixelSize(width: window.width / columns, height: window.height / rows)
        }
        return nil
    }

    private mutating func absorbCSI(_ body: String) -> Bool {
        guard let last = body.last else { return false }
        let parameters = body.dropLast()
        switch last {
        case "t":
            let numbers = parameters.split(separator: ";").compactMap { Int($0) }
            guard numbers.count == 3, numbers[1] > 0, numbers[2] > 0, numbers[1] < 100_000, numbers[2] < 100_000 else { return false }
            let size = PixelSize(width: numbers[2], height: numbers[1])
            if numbers[0] == 6 {
                cell = size
                return true
            }
            if numbers[0] == 4 {
                window = size
                return true
            }
            return false
        case "S" where parameters.hasPrefix("?"):
            // ?1;0;N (registers) and ?2;0;W;H (geometry); a status other than 0 is a refusal.
            let numbers = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard numbers.count >= 3, numbers[1] == 0 else { return numbers.first == 1 || numbers.first == 2 }
            if numbers[0] == 1 {
                colorRegisters = numbers[2]
                return true
            }
            if numbers[0] == 2, numbers.count == 4 {
                sixelLimit = PixelSize(width: numbers[2], height: numbers[3])
                return true
            }
            return false
        case "c" where parameters.hasPrefix("?"):
            sixel = parameters.dropFirst().split(separator: ";").dropFirst().contains("4")
            answered = true
            return true
        default:
            return false
        }
    }

    /// The text between `prefix` and the last `suffixLength` characters, or nil.
    private static func strip(_ text: String, prefix: String, suffixLength: Int) -> String? {
        guard text.hasPrefix(prefix), text.count >= prefix.count + suffixLength else { return nil }
        return String(text.dropFirst(prefix.count).dropLast(suffixLength))
    }

    /// `rgb:RRRR/GGGG/BBBB` (1 to 4 hex digits a channel) as 8 bits a channel.
    private static func colour(_ text: String) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        guard text.hasPrefix("rgb:") else { return nil }
        let channels = text.dropFirst(4).split(separator: "/")
        guard channels.count == 3 else { return nil }
        let values = channels.compactMap { digits -> UInt8? in
            guard (1...4).contains(digits.count), let value = Int(digits, radix: 16) else { return nil }
            let maximum = (1 << (4 * digits.count)) - 1
            return UInt8((value * 255 + maximum / 2) / maximum)
        }
        guard values.count == 3 else { return nil }
        return (values[0], values[1], values[2])
    }
}
