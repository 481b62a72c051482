import TerminalUI

/// What the status line says: what just happened, on the screen where it happened. A status
/// belongs to that screen and that moment: another tab does not show it (leaving the tab drops
/// it), and it goes once it has had time to be read, or when something newer replaces it. Work
/// still going ("Posting…") stays until its result replaces it.
struct StatusLine: Equatable {
    enum Kind: Equatable {
        /// Something done: goes after `noteLasts`.
        case note
        /// Something that failed: goes after `errorLasts`.
        case error
        /// Something under way: stays until replaced.
        case progress
    }

    /// Where it was said: on the login form, or on a tab.
    enum Owner: Equatable {
        case login
        case tab(AppTab)
    }

    let text: String
    let kind: Kind
    let owner: Owner
    /// When it was said, in the app's clock's milliseconds.
    let said: Int64
    /// Too long for the status line's two rows, it was shown whole in a box already.
    var shownInBox = false

    static let noteLasts: Int64 = 8_000
    static let errorLasts: Int64 = 30_000
    /// The rows it may take at the bottom of the window; a longer one is also shown in a box.
    static let rows = 2

    var isError: Bool { kind == .error }

    /// Whether its moment has passed at `now`.
    func isOver(now: Int64) -> Bool {
        switch kind {
        case .progress: false
        case .note: now - said >= Self.noteLasts
        case .error: now - said >= Self.errorLasts
        }
    }

    /// Its text wrapped to `width`, in all the lines it needs.
    func lines(width: Int) -> [String] { TextWrap.lines(text, width: width) }
}
