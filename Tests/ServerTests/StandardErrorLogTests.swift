import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// Log lines written with write(2) to wherever standard error points.
@Suite struct StandardErrorLogTests {
    /// A pipe's two ends; the test closes them.
    private func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func aLineArrivesWholeWithItsNewline() throws {
        let ends = try makePipe()
        defer {
            close(ends.read)
            close(ends.write)
        }
        let log = StandardErrorLog(fileDescriptor: ends.write)
        log.write("2026-01-01T00:00:00Z INFO registered user alice")
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(ends.read, &buffer, buffer.count)
        #expect(String(decoding: buffer[..<max(0, count)], as: UTF8.self) == "2026-01-01T00:00:00Z INFO registered user alice\n")
        #expect(log.droppedLines == 0)
    }

    @Test func linesThatCannotBeWrittenAreDroppedAndCounted() throws {
        // A full disk, without a signal: a pipe nobody reads would raise SIGPIPE in this test
        // process, which does not ignore it as the server does (ServerOutputTests covers EPIPE).
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        let log = StandardErrorLog(fileDescriptor: full)
        for index in 0..<3 { log.write("line \(index)") }
        #expect(log.droppedLines == 3)
    }

    @Test func aClosedDescriptorDropsLinesInsteadOfTrapping() {
        let log = StandardErrorLog(fileDescriptor: -1)
        log.write("nowhere to go")
        #expect(log.droppedLines == 1)
    }
}
