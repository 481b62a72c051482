/// A one-line bar on standard error while an album downloads, drawn only on a terminal:
/// `Pin 12 ███████░░░░░░░ 35% (7/20 photos)`.
struct AlbumProgressBar {
    let label: String
    let console: Console
    private var last: (done: UInt32, expected: UInt32)?

    init(label: String, console: Console) {
        self.label = label
        self.console = console
    }

    /// Redraws when the counts change.
    mutating func update(done: UInt32, expected: UInt32) {
        guard console.errorIsTerminal else { return }
        guard last?.done != done || last?.expected != expected else { return }
        last = (done, expected)
        let percent = expected == 0 ? 0 : min(100, Int(done) * 100 / Int(expected))
        console.rawError("\r\u{1B}[K\(label) \(ProgressBar.bar(percent: percent)) \(percent)% (\(done)/\(expected) photos)")
    }

    /// Clears the bar's line, so what follows starts clean.
    func finish() {
        guard console.errorIsTerminal, last != nil else { return }
        console.rawError("\r\u{1B}[K")
    }
}
