import Foundation
import Posix

#if canImport(Glibc)
    import Glibc
#endif

/// A child's output read line by line as it comes, so a test can wait for what it prints.
/// Each wait has a deadline that only turns a hang into a failure.
package final class OutputLines: @unchecked Sendable {
    private let fd: Int32
    private var pending: [UInt8] = []
    private var ended = false

    /// Reads from `handle`, which the caller keeps open.
    package init(_ handle: FileHandle) { fd = handle.fileDescriptor }

    /// The next whole line (without its newline), or nil when the output ends or `timeout`
    /// seconds pass first.
    package func next(timeout: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let left = deadline.timeIntervalSinceNow
            guard !ended, left > 0 else { return nil }
            guard (try? Syscall.waitUntilReadable(fd, timeoutMilliseconds: Int32(min(left, 1) * 1000))) == true else { continue }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            switch try? Syscall.read(fd, into: &chunk) {
            case .processed(let count) where count > 0: pending += chunk[..<count]
            case .wouldBlock: continue
            default: ended = true
            }
        }
    }

    /// Lines until one satisfies `wanted` (returned last), or nil when the output ends or
    /// `timeout` seconds pass first.
    package func first(timeout: Double = 30, where wanted: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while let line = next(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if wanted(line) { return line }
        }
        return nil
    }
}
