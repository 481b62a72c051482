import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// The data folder is made owner-only, and the operator hears about it.
@Suite struct DataDirectoryTests {
    /// A logger that keeps its lines for the test.
    private final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var logger: Logger { Logger(level: .info) { line in self.lines.withLock { $0.append(line) } } }
    }

    @Test func aNewFolderIsCreatedOwnerOnlyWithoutAWarning() throws {
        let directory = TemporaryDirectory("snapshare-data-folder")
        let log = Lines()
        try DataDirectory.prepare(directory.file("a/b/data"), logger: log.logger)
        var status = stat()
        #expect(stat(directory.file("a/b/data"), &status) == 0 && status.st_mode & 0o777 == 0o700)
        #expect(log.lines.withLock { $0 }.isEmpty)
    }

    @Test func anOpenFolderIsMadeOwnerOnlyAndTheWarningSaysSo() throws {
        let directory = TemporaryDirectory("snapshare-data-folder")
        let path = directory.file("data")
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o775])
        let log = Lines()
        try DataDirectory.prepare(path, logger: log.logger)
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o700)
        let lines = log.lines.withLock { $0 }
        #expect(lines.count == 1)
        #expect(
            lines.first?.contains("WARNING the data folder \(path) was open to other users (mode 0775); it is now owner-only (mode 0700)")
                == true,
            "\(lines)")
    }

    @Test func aFolderThatCannotBeMadeOwnerOnlyStopsTheStartWithTheReason() throws {
        // Not even root may change the mode of a folder in /proc.
        #expect {
            try DataDirectory.prepare("/proc/sys", logger: Lines().logger)
        } throws: { error in
            let text = "\(error)"
            return text.contains("/proc/sys can be read by other users (mode 0555)") && text.contains("cannot be made owner-only")
        }
    }

    @Test func aFileWhereTheFolderShouldBeIsRefused() throws {
        let directory = TemporaryDirectory("snapshare-data-folder")
        #expect(FileManager.default.createFile(atPath: directory.file("data"), contents: Data()))
        #expect(throws: ConfigurationError.self) { try DataDirectory.prepare(directory.file("data"), logger: Lines().logger) }
    }
}
