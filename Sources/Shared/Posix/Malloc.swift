import CLinux

/// glibc's allocator settings (mallopt), for a process that must keep its resident memory in check.
public enum Malloc {
    /// Blocks of `bytes` and more get a mapping of their own, returned to the kernel when freed
    /// (M_MMAP_THRESHOLD; setting it also stops glibc from raising it as large blocks are freed).
    /// False when glibc refuses the value.
    @discardableResult
    public static func setMmapThreshold(_ bytes: Int32) -> Bool {
        mallopt(M_MMAP_THRESHOLD, bytes) == 1
    }

    /// The top of a heap is given back to the kernel only once `bytes` are free there
    /// (M_TRIM_THRESHOLD). False when glibc refuses the value.
    @discardableResult
    public static func setTrimThreshold(_ bytes: Int32) -> Bool {
        mallopt(M_TRIM_THRESHOLD, bytes) == 1
    }
}
