/// A one-line progress bar on standard error for long transfers, drawn only on a terminal.
struct ProgressBar {
    let label: String
    let console: Console
    /// How an amount reads: bytes by default (`1.2 MB`), or a count of things.
    let amount: (Int) -> String
    private var lastPercent = -1

    init(label: String, console: Console, amount: @escaping (Int) -> String = { ByteCount.describe($0) }) {
        self.label = label
        self.console = console
        self.amount = amount
    }

    /// Redraws when the whole percentage changes.
    mutating func update(done: Int, total: Int) {
        guard console.errorIsTerminal, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        console.rawError("\r\(label) \(Self.bar(percent: percent)) \(percent)% (\(amount(done))/\(amount(total)))")
        if percent == 100 { console.rawError("\r\u{1B}[K") }
    }

    /// The bar itself: 30 cells, `percent` of them filled.
    static func bar(percent: Int) -> String {
        let width = 30
        let filled = percent * width / 100
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }
}
