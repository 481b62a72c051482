import TerminalUI

/// Something over the screen that takes every key while it shows: the `?` help, a box of text,
/// a picture on the whole window, a question. Each answers through its own key table (`keys`),
/// which also writes what it says of its keys (a box's last line, a picture's caption, a
/// dialog's answers), so the keys on screen are the keys that work. Ctrl-C and Ctrl-Z work over
/// every one of them too (`AppKeys.everywhere`); nothing reaches the screen behind.
enum Overlay {
    /// The `?` help: the keys of the screen shown, then the app's.
    case help
    /// A picture full screen with one caption line, its keys at the end (`PictureView`);
    /// `reportable`, the snap it shows, which `r` reports.
    case picture(PictureCells, caption: String, reportable: UInt64? = nil)
    /// Lines of text in a box (who opened my snap, a fingerprint trusted, a long message).
    case text(title: String, lines: [String])
    /// A question: a line to type, or yes and no; its keys are the dialog's own.
    case dialog(Dialog)

    /// The keys it answers to now.
    var keys: KeyTable<AppModel> {
        switch self {
        case .help, .text: Self.boxKeys
        case .picture(_, _, let snap): PictureView.keys(reporting: snap)
        case .dialog(let dialog): KeyTable(dialog.keys.lifted { app in if case .dialog(let shown)? = app.overlay { shown } else { nil } })
        }
    }

    /// A box's keys: any closes it (a click too; the mouse moving or letting go does not).
    static let boxKeys = KeyTable<AppModel>([.init([.anyKey], "closes") { $0.closeOverlay() }])

    /// Draws the box over the screen drawn under it: `help` is what the `?` box lists, the
    /// screen's keys, then the app's. A picture has the window to itself (`PictureView.draw`).
    func drawBox(
        into grid: inout CellGrid, help: (screen: [(keys: String, meaning: String)], app: [(keys: String, meaning: String)]),
        errorStyle: Style
    ) {
        switch self {
        case .help:
            let line = { (keys: String, meaning: String) in
                keys.padding(toLength: max(keys.count + 2, 24), withPad: " ", startingAt: 0) + meaning
            }
            let lines = help.screen.map(line) + [""] + help.app.map(line) + ["", keys.summary]
            DialogBox.draw(into: &grid, title: "Keys", lines: lines.map { .text($0) })
        case .text(let title, let lines):
            DialogBox.draw(into: &grid, title: title, lines: (lines + ["", keys.summary]).map { .text($0) })
        case .dialog(let dialog):
            DialogBox.draw(into: &grid, title: dialog.title, lines: dialog.lines(errorStyle: errorStyle))
        case .picture:
            break
        }
    }
}

/// The overlay shown, and those waiting for it to close: a fingerprint pinned while a dialog is
/// open shows once the dialog has closed.
struct OverlayQueue {
    var shown: Overlay?
    private var waiting: [Overlay] = []

    /// Shows `overlay` now, or once those before it have closed.
    mutating func show(_ overlay: Overlay) {
        if shown == nil { shown = overlay } else { waiting.append(overlay) }
    }

    /// The overlay shown comes off; the next waiting one shows.
    mutating func close() {
        shown = waiting.isEmpty ? nil : waiting.removeFirst()
    }
}
