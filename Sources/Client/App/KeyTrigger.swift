import TerminalUI

/// What an entry of a key table answers to: a key, a character typed alone, the mouse, the
/// typing a text field takes, or anything pressed (a box that any key closes); and the name the
/// `?` help gives it.
enum KeyTrigger: Equatable, Sendable {
    /// A key, with or without modifiers: arrows, Enter, Esc, Ctrl-L.
    case key(Key)
    /// A character typed alone (`p`, `?`, `+`); not while a field takes the typing.
    case character(Character)
    /// A press of the left button.
    case click
    case wheelUp, wheelDown
    /// Any key or paste, for a text field, which takes what it knows (characters, the editing
    /// keys) and leaves the rest to the entries after it.
    case typing
    /// Any key, paste or click (a press of any button; not the mouse moving, letting go or its
    /// wheel): what closes a box or a picture. After other entries it is "any other key".
    case anyKey

    /// Whether `event` sets this trigger off; `typing` is true while a field takes the typing.
    func matches(_ event: InputEvent, typing: Bool) -> Bool {
        switch (self, event) {
        case (.key(let key), .key(let pressed, _)): key == pressed
        case (.character(let character), .key(.character(let typed), [])): !typing && typed == character
        case (.click, .mouse(let mouse)): mouse.action == .press(.left)
        case (.wheelUp, .mouse(let mouse)): mouse.action == .wheelUp
        case (.wheelDown, .mouse(let mouse)): mouse.action == .wheelDown
        case (.typing, .key), (.typing, .paste): true
        case (.anyKey, .mouse(let mouse)): if case .press = mouse.action { true } else { false }
        case (.anyKey, _): true
        default: false
        }
    }

    /// How the help names it.
    var name: String {
        switch self {
        case .key(let key): Self.name(of: key)
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .click: "click"
        case .wheelUp, .wheelDown: "wheel"
        case .typing: "typing"
        case .anyKey: "any key"
        }
    }

    /// Where the help puts it among an entry's keys: named keys, then characters, then the mouse.
    var order: Int {
        switch self {
        case .key: 0
        case .character: 1
        case .click, .wheelUp, .wheelDown: 2
        case .typing, .anyKey: 3
        }
    }

    private static func name(of key: Key) -> String {
        switch key {
        case .character(let character): String(character)
        case .enter: "Enter"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .escape: "Esc"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .insert: "Insert"
        case .delete: "Delete"
        case .function(let number): "F\(number)"
        case .control(let character): "Ctrl-" + character.uppercased()
        }
    }
}
