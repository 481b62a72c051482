/// The escape sequences of the graphics protocols, each placing one picture with its top left
/// corner at a cell (0-based). Each protocol's encoder is a file of its own: `KittyEscapes`,
/// `ITermEscapes`, `SixelEncoding`.
public enum PictureEscapes {
    /// Moves the cursor to a cell (0-based), where a picture's top left corner goes.
    static func cursor(column: Int, row: Int) -> String { "\u{1B}[\(row + 1);\(column + 1)H" }
}
