import Posix

/// How the server process asks glibc's allocator to behave.
///
/// Why: glibc raises its mmap threshold to the size of the largest block freed so far. A login
/// hashes with scrypt, which needs 16 MiB; after the first one, those 16 MiB come from the heap of
/// a handler thread's arena and stay there after free, so every arena that ever hashed a password
/// keeps tens of MiB of resident garbage. A fixed threshold keeps blocks of 1 MiB and more in
/// their own mappings, returned to the kernel on free. The trim threshold is raised so the heap
/// top is not shrunk and regrown with every burst of images that passes through: one group-commit
/// batch of opens lays out up to 256 reply frames of about 100 KB (25 MiB) on the writer thread,
/// and with 8 MiB each batch faulted its memory in afresh, which cost the writer about a third
/// of its time in the view benchmark (docs/benchmarks.md).
enum MemoryPolicy {
    static let mmapThreshold: Int32 = 1 << 20
    static let trimThreshold: Int32 = 64 << 20

    /// Applies the policy; safe to call more than once.
    static func apply() {
        Malloc.setMmapThreshold(mmapThreshold)
        Malloc.setTrimThreshold(trimThreshold)
    }
}
