/// How many colours the terminal shows, from what it says of itself.
///
/// Pictures use the most the terminal has: 24-bit where `COLORTERM` says `truecolor` or `24bit`
/// (or `TERM` ends in `-direct`), the 256-colour palette where `TERM` names one
/// (`xterm-256color`, `screen-256color`, `tmux-256color`), and otherwise plain characters with no
/// colour at all (`dumb`, no `TERM`, or a 16-colour console). `NO_COLOR` is about decorations
/// (markers, map pins), not about pictures, whose colours are their content.
public enum ColorDepth: Sendable, Equatable {
    case trueColor
    case palette256
    case plain

    /// The depth the environment describes.
    public static func detect(_ environment: [String: String]) -> ColorDepth {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        let term = (environment["TERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") { return .trueColor }
        if term.contains("256") { return .palette256 }
        return .plain
    }

    /// Whether decorations may be coloured: on a terminal, unless `NO_COLOR` is set (to anything).
    public static func decorationsColored(_ environment: [String: String], onTerminal: Bool) -> Bool {
        onTerminal && (environment["NO_COLOR"] ?? "").isEmpty && (environment["TERM"] ?? "") != "dumb"
    }

    /// The nearest entry of the xterm 256-colour palette: the 6x6x6 cube (16-231) or the grey
    /// ramp (232-255), whichever is closer.
    public static func paletteIndex(red: UInt8, green: UInt8, blue: UInt8) -> Int {
        func cubeLevel(_ value: UInt8) -> Int { value < 48 ? 0 : value < 115 ? 1 : (Int(value) - 35) / 40 }
        let levels = [0, 95, 135, 175, 215, 255]
        let (r, g, b) = (cubeLevel(red), cubeLevel(green), cubeLevel(blue))
        let cube = (levels[r], levels[g], levels[b])
        let average = (Int(red) + Int(green) + Int(blue)) / 3
        let greyStep = average > 238 ? 23 : max(0, (average - 3) / 10)
        let grey = 8 + greyStep * 10
        func distance(_ c: (Int, Int, Int)) -> Int {
            let (dr, dg, db) = (c.0 - Int(red), c.1 - Int(green), c.2 - Int(blue))
            return dr * dr + dg * dg + db * db
        }
        return distance((grey, grey, grey)) < distance(cube) ? 232 + greyStep : 16 + 36 * r + 6 * g + b
    }

    /// Characters from light to dark ink, for pictures without colour: each cell's brightness.
    public static let shades: [Character] = Array(" .:-=+*#%@")
}
