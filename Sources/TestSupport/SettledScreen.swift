import Foundation

/// Waiting for a screen read from outside the program (a tmux pane's text, a window's pixels).
enum SettledScreen {
    /// Captures every `interval` seconds until `condition` holds of a settled screen or `timeout`
    /// passes; returns the last screen. A capture can land in the middle of a frame being drawn
    /// (the top already new, the bottom still old), so a screen counts only once the capture after
    /// it shows the same. Not a timing assertion: the deadline only stops a hung program from
    /// hanging the run. Nothing tells a test that a terminal has drawn, so this polls.
    static func wait<Screen: Equatable>(
        timeout: Double, every interval: Double, capture: () throws -> Screen,
        until condition: (Screen) -> Bool
    ) throws -> Screen {
        var previous: Screen?
        var last = try capture()
        let settled = try Polling.first(timeout: timeout, every: interval) { () throws -> Screen? in
            if previous != nil { last = try capture() }
            defer { previous = last }
            return condition(last) && previous == last ? last : nil
        }
        return settled ?? last
    }
}
