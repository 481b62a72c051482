import Foundation
import Posix

/// CPU time and memory of a process, read from /proc.
struct ProcessSample: Sendable {
    /// User plus system CPU time of every thread, living or exited, in microseconds.
    var cpuMicroseconds: Double
    /// Resident set size now, in KiB.
    var rssKB: Int
    /// Peak resident set size since the process started (VmHWM), in KiB.
    var peakRSSKB: Int
}

/// Reads the server's counters from /proc/PID: `stat` for CPU ticks (clock ticks of 10 ms, which
/// over a run of seconds at thousands of operations is plenty), `status` for RSS and its peak.
/// Several processes (the instances of a cluster, or PostgreSQL's) are summed.
struct ServerProbe: Sendable {
    let pids: [Int32]
    var pid: Int32 { pids[0] }

    init(pid: Int32) { pids = [pid] }
    init(pids: [Int32]) { self.pids = pids }

    /// The counters of every process, summed; nil when one is gone.
    func sample() -> ProcessSample? {
        var total = ProcessSample(cpuMicroseconds: 0, rssKB: 0, peakRSSKB: 0)
        for pid in pids {
            guard let one = Self.sample(pid) else { return nil }
            total.cpuMicroseconds += one.cpuMicroseconds
            total.rssKB += one.rssKB
            total.peakRSSKB += one.peakRSSKB
        }
        return total
    }

    private static func sample(_ pid: Int32) -> ProcessSample? {
        guard let stat = Self.read("/proc/\(pid)/stat"), let status = Self.read("/proc/\(pid)/status") else { return nil }
        // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so utime (14) and stime (15) sit at offsets 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticksPerSecond = Double(ThisProcess.clockTicksPerSecond)
        return ProcessSample(
            cpuMicroseconds: (user + system) / ticksPerSecond * 1_000_000,
            rssKB: Self.kilobytes("VmRSS:", in: status) ?? 0,
            peakRSSKB: Self.kilobytes("VmHWM:", in: status) ?? 0)
    }

    private static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func kilobytes(_ key: String, in status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix(key) {
            return Int(line.dropFirst(key.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
