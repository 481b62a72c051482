import TerminalUI

/// One screen of the app (a tab, or the login form): events in, cells out.
///
/// Its keys are one `KeyTable`: `handle` runs it and the `?` help lists it. Each frame is laid
/// out, then drawn: `layout(in:)` is the one step that may change the screen for the frame
/// (scrolling, and where each thing a click can hit sits or each thumbnail goes, kept as the
/// screen's state for the events and the frame that follow); `draw` only reads, like ratatui's
/// `StatefulWidget`, so drawing twice draws the same and changes nothing.
protocol AppScreen: AnyObject {
    /// The keys the screen answers to now (they change with its mode).
    var keys: KeyTable<Self> { get }
    /// True while the user types into a field: letters then go to it, not to the tab bar.
    var isTyping: Bool { get }
    /// Shown (tab chosen, or the app resumed): a chance to fetch what it shows.
    func activate()
    /// Hidden (another tab chosen, the login form shown, the app suspended): a chance to let go of
    /// what only shows here (the camera).
    func deactivate()
    /// Places what the screen shows in `area` for the state it is in, before `draw`.
    func layout(in area: Rect)
    /// Draws the state into `area` of `grid`, where the last layout placed it; changes nothing.
    func draw(into grid: inout CellGrid, area: Rect)
    /// The pictures shown as thumbnails, where the last layout put them: `draw` draws them in
    /// half blocks (`AppModel.draw(_:into:)`), or the loop sends them through the kitty protocol
    /// (`AppModel.protocolThumbnails`).
    var thumbnails: [KittyThumbnails.Placement] { get }
    /// Called about once a second: timers, live data.
    func tick(now: Int64)
    /// The app is closing: send what is pending (a moved map view).
    func finish()
}

extension AppScreen {
    var isTyping: Bool { false }
    func activate() {}
    func deactivate() {}
    func layout(in area: Rect) {}
    var thumbnails: [KittyThumbnails.Placement] { [] }
    func tick(now: Int64) {}
    func finish() {}

    /// Runs the screen's key table for `event`; false when no entry took it.
    func handle(_ event: InputEvent) -> Bool {
        var screen = self
        return keys.handle(event, on: &screen, typing: isTyping)
    }

    /// The screen's lines of the `?` help, from the same table.
    var keyHelp: [(keys: String, meaning: String)] { keys.help }
}
