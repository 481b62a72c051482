import TerminalUI

/// The colours the app decorates with (unread rows, pins, the map's land, ids, errors, loading tiles), in a set
/// for dark backgrounds and one for light ones: cyan and yellow text that reads on black is
/// hard to read on xterm's default white. Which set comes from the background colour the
/// terminal reports (OSC 11); dark when it does not say. Without colour every one is the
/// terminal's own, and bold and reverse carry the meaning.
struct Decorations: Equatable {
    var unread: Color
    var pin: Color
    var selectedPin: Color
    var land: Color
    var faint: Color
    var error: Color
    /// The background of a photo tile still loading.
    var tile: Color

    /// For dark backgrounds: bright cyan, salmon and yellow pins, green land.
    static let dark = Decorations(
        unread: .indexed(45), pin: .indexed(203), selectedPin: .indexed(226), land: .indexed(71),
        faint: .indexed(244), error: .indexed(196), tile: .indexed(236))
    /// For light backgrounds: the same hues darkened until they read on white.
    static let light = Decorations(
        unread: .indexed(25), pin: .indexed(160), selectedPin: .indexed(166), land: .indexed(28),
        faint: .indexed(243), error: .indexed(124), tile: .indexed(253))
    /// Every colour the terminal's default: no colour at all.
    static let none = Decorations(
        unread: .standard, pin: .standard, selectedPin: .standard, land: .standard,
        faint: .standard, error: .standard, tile: .standard)

    /// The set for a terminal: `colour` off gives `none`.
    static func chosen(colour: Bool, lightBackground: Bool) -> Decorations {
        colour ? (lightBackground ? .light : .dark) : .none
    }
}
