#if canImport(Glibc)
    import Glibc
#endif

/// The monotonic clock (CLOCK_MONOTONIC): never set back, so differences are true durations.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary start (boot).
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Milliseconds since the same start.
    public static func milliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
