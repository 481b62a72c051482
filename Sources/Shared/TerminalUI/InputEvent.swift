/// One thing the user did at the terminal: a key, a mouse action, or pasted text.
public enum InputEvent: Sendable, Equatable {
    case key(Key, Modifiers = [])
    case mouse(MouseEvent)
    /// Text pasted while bracketed paste was on, as one event (line ends as "\n").
    case paste(String)
    /// Bytes that form no event this parser knows (kept so a caller can name them).
    case unknown([UInt8])
}

/// A key as the terminal reports it.
public enum Key: Sendable, Equatable, Hashable {
    /// A printable character, as typed (shift already applied by the terminal).
    case character(Character)
    case enter, tab, backTab, backspace, escape
    case up, down, left, right, home, end, pageUp, pageDown, insert, delete
    /// F1 to F12.
    case function(Int)
    /// Ctrl with a letter (`"c"` for Ctrl-C) or with space, `@`, `[`, `\`, `]`, `^`, `_`.
    case control(Character)
}

/// Keys held with a key or a mouse action, as xterm encodes them.
public struct Modifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = Modifiers(rawValue: 1)
    public static let alt = Modifiers(rawValue: 2)
    public static let control = Modifiers(rawValue: 4)
}

/// A mouse action in SGR (mode 1006) terms; columns and rows count from 0 at the top left.
public struct MouseEvent: Sendable, Equatable {
    public enum Button: Sendable, Equatable {
        case left, middle, right
    }

    public enum Action: Sendable, Equatable {
        case press(Button)
        case release(Button)
        /// Moved with a button held.
        case drag(Button)
        /// Moved with no button held (only reported in any-motion mode).
        case move
        case wheelUp, wheelDown
    }

    public var action: Action
    public var column: Int
    public var row: Int
    public var modifiers: Modifiers

    public init(action: Action, column: Int, row: Int, modifiers: Modifiers = []) {
        self.action = action
        self.column = column
        self.row = row
        self.modifiers = modifiers
    }
}
