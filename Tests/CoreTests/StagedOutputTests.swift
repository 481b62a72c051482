import Posix
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `StagedOutput`'s files, the one way a file is written: exactly their mode from creation,
/// named only once complete, never over another unless replacing it, nothing left behind by a
/// write that fails.
@Suite("Staged output files")
struct StagedOutputTests {
    /// The text of `path`, or nil when it cannot be read.
    static func text(_ path: String) -> String? {
        (try? WholeFile.read(path, maximumBytes: 1 << 24)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("a file has exactly its mode, whatever the umask would clear, and the folder holds nothing else")
    func aFileHasExactlyItsMode() throws {
        let folder = TemporaryDirectory()
        for (name, mode) in [("secret", mode_t(0o600)), ("public", 0o644), ("shared", 0o666)] {
            try StagedOutput.write(Array("\(name)\n".utf8), to: folder.file(name), mode: mode)
            #expect(try FileSystem.status(folder.file(name))?.permissions == mode, "\(name)")
            #expect(Self.text(folder.file(name)) == "\(name)\n")
        }
        #expect(try FileSystem.entries(of: folder.path) == ["public", "secret", "shared"])
    }

    @Test("a file is owner-only unless another mode is asked for")
    func ownerOnlyByDefault() throws {
        let folder = TemporaryDirectory()
        try StagedOutput.write(Array("token".utf8), to: folder.file("session"))
        #expect(try FileSystem.status(folder.file("session"))?.permissions == 0o600)
    }

    @Test("without replacing, an existing file is never written over and nothing is left beside it")
    func anExistingFileIsNotWrittenOver() throws {
        let folder = TemporaryDirectory()
        try folder.write("first", to: "backup")
        #expect(throws: OutputError(folder.file("backup"), .exists)) {
            try StagedOutput.write(Array("second".utf8), to: folder.file("backup"))
        }
        #expect(Self.text(folder.file("backup")) == "first")
        #expect(try FileSystem.entries(of: folder.path) == ["backup"])
    }

    @Test("replacing, a reader sees the old file until the commit and the new one after it")
    func replacingSwapsTheWholeFile() throws {
        let folder = TemporaryDirectory()
        try folder.write("old", to: "config")
        let staged = try StagedOutput.file(folder.file("config"), replacing: true)
        try staged.write(Array("new, ".utf8))
        try staged.write(Array("whole".utf8))
        #expect(Self.text(folder.file("config")) == "old")
        try staged.commit()
        #expect(Self.text(folder.file("config")) == "new, whole")
        #expect(try FileSystem.entries(of: folder.path) == ["config"])
    }

    @Test("a staged file discarded, or released uncommitted, leaves the disk as it was")
    func aDiscardedFileLeavesNothing() throws {
        let folder = TemporaryDirectory()
        try folder.write("old", to: "config")
        let before = FolderState(of: folder.path)
        let staged = try StagedOutput.file(folder.file("config"), replacing: true)
        try staged.write(Array("half".utf8))
        staged.discard()
        do {
            let released = try StagedOutput.file(folder.file("new"))
            try released.write(Array("half".utf8))
        }
        #expect(FolderState(of: folder.path) == before)
    }

    @Test("a file in a folder that does not exist is refused in words that name the folder, and nothing is made")
    func aMissingFolderIsNamed() throws {
        let folder = TemporaryDirectory()
        let path = folder.file("missing/backup")
        #expect(throws: OutputError(path, .missingFolder(folder.file("missing")))) {
            try StagedOutput.write([], to: path)
        }
        #expect(try FileSystem.entries(of: folder.path).isEmpty)
    }

    @Test("a file is copied in a piece at a time, however large")
    func aLargeFileIsCopiedWhole() throws {
        let folder = TemporaryDirectory()
        // Two and a half times the piece it copies at once, with a pattern that shows a lost piece.
        let bytes = (0..<(5 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 16) }
        try StagedOutput.write(bytes, to: folder.file("source"), mode: 0o644)
        let staged = try StagedOutput.file(folder.file("copy"))
        try staged.write(contentsOf: folder.file("source"))
        try staged.commit()
        #expect(try WholeFile.read(folder.file("copy"), maximumBytes: 1 << 24) == bytes)
    }
}
