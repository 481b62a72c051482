import TerminalUI

/// The cursor of `movies browse` as a value: keys in, what to show out. It never moves past
/// either end; trying to is answered with the two fixed messages.
struct MovieBrowser: Equatable {
    /// A key, already decoded from the bytes that arrived.
    enum Key: Equatable {
        case next, previous, quit
        /// Anything else, as the user would read it.
        case other(String)
    }

    /// What the command does next.
    enum Action: Equatable {
        /// Show the record at this index.
        case show(Int)
        /// Print this line; the cursor did not move.
        case message(String)
        /// Say which keys work; the cursor did not move.
        case unknownKey(String)
        /// Stop browsing.
        case quit
    }

    /// Next on the last record.
    static let noMoreRecords = "No more records"
    /// Previous on the first record.
    static let showingFirstRecord = "Showing the first Record"

    /// How many records there are (at least one: an empty list is not browsed).
    let count: Int
    /// The record shown now.
    private(set) var index = 0

    init(count: Int) {
        precondition(count > 0, "an empty list is not browsed")
        self.count = count
    }

    /// Moves the cursor for `key`.
    mutating func on(_ key: Key) -> Action {
        switch key {
        case .next:
            guard index + 1 < count else { return .message(Self.noMoreRecords) }
            index += 1
            return .show(index)
        case .previous:
            guard index > 0 else { return .message(Self.showingFirstRecord) }
            index -= 1
            return .show(index)
        case .quit:
            return .quit
        case .other(let text):
            return .unknownKey(text)
        }
    }

    /// The key for one input event, or nil for keys that mean nothing here (white space, so
    /// piped input may be spread over lines). Arrow keys move too; Escape, Ctrl-C and Ctrl-D
    /// quit, because raw mode turns off the terminal's own handling of them.
    static func key(for event: InputEvent) -> Key? {
        switch event {
        case .key(.character("n"), _), .key(.character("N"), _), .key(.right, _), .key(.down, _):
            return .next
        case .key(.character("p"), _), .key(.character("P"), _), .key(.left, _), .key(.up, _):
            return .previous
        case .key(.character("q"), _), .key(.character("Q"), _), .key(.escape, _), .key(.control("c"), _), .key(.control("d"), _):
            return .quit
        case .key(.character(" "), _), .key(.enter, _), .key(.tab, _):
            return nil
        case .key(.character(let character), _):
            return .other(String(character))
        case .unknown(let bytes):
            return .other(bytes.map { String($0, radix: 16, uppercase: true) }.joined(separator: " "))
        default:
            return .other("\(event)")
        }
    }
}
