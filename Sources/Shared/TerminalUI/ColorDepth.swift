/// How many colours the terminal shows, from what it says of itself.
///
/// Pictures use the most the terminal has:
/// - 24-bit where `COLORTERM` says `truecolor` or `24bit`, `TERM` ends in `-direct`, the
///   terminal is one known to take direct colour (kitty, WezTerm, iTerm2, Ghostty, foot, VS Code,
///   by `TERM`, `TERM_PROGRAM` or the name it gave to XTVERSION), or it is xterm 331 or later by
///   its XTVERSION answer (Debian's xterm says only `TERM=xterm`, and no `COLORTERM`);
/// - the 256-colour palette where `TERM` names one, and for the rest of the xterm family;
/// - shaded characters with no colour at all for `dumb`, the Linux console (16 colours), no
///   `TERM`, and `NO_COLOR` (set to anything).
public enum ColorDepth: Sendable, Equatable {
    case trueColor
    case palette256
    case plain

    /// The depth the environment describes, and the terminal's XTVERSION answer when it gave one
    /// (else xterm's `XTERM_VERSION`).
    public static func detect(_ environment: [String: String], version: String? = nil) -> ColorDepth {
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        let term = (environment["TERM"] ?? "").lowercased()
        if !(environment["NO_COLOR"] ?? "").isEmpty || term == "dumb" || term == "linux" { return .plain }
        if colorTerm == "truecolor" || colorTerm == "24bit" || term.hasSuffix("-direct") { return .trueColor }
        if term.isEmpty { return .plain }
        let program = environment["TERM_PROGRAM"] ?? ""
        if ["kitty", "ghostty", "wezterm", "foot", "alacritty"].contains(where: term.contains)
            || ["iTerm.app", "WezTerm", "ghostty", "vscode"].contains(program) || environment["KITTY_WINDOW_ID"] != nil
        {
            return .trueColor
        }
        // xterm also names itself in XTERM_VERSION, for when it was not asked.
        if let version = version ?? environment["XTERM_VERSION"], Self.directColour(version: version) { return .trueColor }
        if term.contains("256") || term == "xterm" || term.hasPrefix("xterm-") { return .palette256 }
        return .plain
    }

    /// Whether a terminal that names itself `version` (XTVERSION) takes direct colour.
    static func directColour(version: String) -> Bool {
        if version.hasPrefix("XTerm(") {
            let patch = Int(version.dropFirst(6).prefix { $0.isNumber }) ?? 0
            return patch >= 331
        }
        return ["kitty", "WezTerm", "iTerm2", "foot", "ghostty", "Konsole", "contour", "mintty"].contains { version.hasPrefix($0) }
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
