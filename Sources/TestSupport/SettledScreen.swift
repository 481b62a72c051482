import Foundation

/// Waiting for a screen read from outside the program (a tmux pane's text, a window's pixels).
enum SettledScreen {
    /// Captures every `interval` seconds until `condition` holds of a settled screen or `timeout`
    /// passes; returns the last screen. A capture can land in the middle of a frame being drawn
    /// (the top already new, the bottom still old), so a screen counts only once a second capture
    /// a moment later shows the same. Not a timing assertion: the deadline only stops a hung
    /// program from hanging the run.
    static func wait<Screen: Equatable>(timeout: Double, every interval: Double, capture: () throws -> Screen,
                                        until condition: (Screen) -> Bool) throws -> Screen {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = try capture()
        while Date() < deadline {
            if condition(screen) {
                Thread.sleep(forTimeInterval: interval / 2)
                let again = try capture()
                if again == screen { return screen }
                screen = again
            } else {
                Thread.sleep(forTimeInterval: interval)
                screen = try capture()
            }
        }
        return screen
    }
}
