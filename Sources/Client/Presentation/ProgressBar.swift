#if canImport(Glibc)
import Glibc
#endif
/// A one-line progress bar on standard error for long transfers, drawn only on a terminal.
struct ProgressBar {
    let label: String
    let console: Console
    private var lastPercent = -1

    init(label: String, console: Console) {
        self.label = label
        self.console = console
    }

    /// Redraws when the whole percentage changes.
    mutating func update(done: Int, total: Int) {
        guard console.errorIsTerminal, total > 0 else { return }
        let percent = min(100, done * 100 / total)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        console.rawError("\r\(label) \(bar) \(percent)% (\(ByteCount.describe(done))/\(ByteCount.describe(total)))")
        if percent == 100 { console.rawError("\r\u{1B}[K") }
    }
}

extension Console {
    func rawError(_ text: String) {
        var copy = text
        copy.withUTF8 { buffer in _ = write2(buffer) }
    }

    private func write2(_ buffer: UnsafeBufferPointer<UInt8>) -> Int {
        var offset = 0
        while offset < buffer.count {
            #if canImport(Glibc)
            let n = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
            #endif
            if n <= 0 { break }
            offset += n
        }
        return offset
    }
}

/// Human-readable byte counts.
enum ByteCount {
    static func describe(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return String(format1: Double(bytes) / 1024, unit: "KB") }
        return String(format1: Double(bytes) / (1024 * 1024), unit: "MB")
    }
}

extension String {
    init(format1 value: Double, unit: String) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10) \(unit)"
    }
}
