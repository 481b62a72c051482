import Posix
import Testing

@Suite("Allocator tuning")
struct MallocTests {
    @Test("glibc takes the thresholds the server sets")
    func glibcTakesTheServersThresholds() {
        // The server's values (MemoryPolicy): 1 MiB and 64 MiB. Setting them again is harmless.
        #expect(Malloc.setMmapThreshold(1 << 20))
        #expect(Malloc.setTrimThreshold(64 << 20))
    }
}
