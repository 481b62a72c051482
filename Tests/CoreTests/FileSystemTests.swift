import Posix
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `FileSystem`, the calls on paths other than writing a file: what is there, folders made with
/// exactly their mode, removal.
@Suite("File system paths")
struct FileSystemTests {
    @Test("folders are made with exactly their mode, each missing one above too, and those there already are left as they are")
    func foldersHaveExactlyTheirMode() throws {
        let folder = TemporaryDirectory()
        try FileSystem.makeFolder(folder.file("kept"), mode: 0o755)
        try FileSystem.makeFolders(folder.file("kept/a/b"), mode: 0o700)
        #expect(try FileSystem.status(folder.file("kept"))?.permissions == 0o755)
        #expect(try FileSystem.status(folder.file("kept/a"))?.permissions == 0o700)
        #expect(try FileSystem.status(folder.file("kept/a/b"))?.kind == .folder)
        #expect(try FileSystem.status(folder.file("kept/a/b"))?.permissions == 0o700)
        // Bits a umask of 022 would clear are set all the same.
        #expect(try FileSystem.makeFolder(folder.file("shared"), mode: 0o777))
        #expect(try FileSystem.status(folder.file("shared"))?.permissions == 0o777)
        #expect(try !FileSystem.makeFolder(folder.file("shared"), mode: 0o700), "a folder that exists is not made again")
        #expect(try FileSystem.status(folder.file("shared"))?.permissions == 0o777)
    }

    @Test("a file where a folder should be is an error naming the first folder that cannot be made")
    func aFileInTheWayIsNamed() throws {
        let folder = TemporaryDirectory()
        try folder.write("not a folder", to: "file")
        #expect(throws: SystemError("mkdir", errno: ENOTDIR, path: folder.file("file/state"))) {
            try FileSystem.makeFolders(folder.file("file/state/more"), mode: 0o700)
        }
        #expect(throws: SystemError("mkdir", errno: EEXIST, path: folder.file("file"))) {
            try FileSystem.makeFolders(folder.file("file"), mode: 0o700)
        }
    }

    @Test("what is not there has no status, and removing it says nothing was there")
    func whatIsNotThere() throws {
        let folder = TemporaryDirectory()
        #expect(try FileSystem.status(folder.file("nothing")) == nil)
        #expect(try FileSystem.status(folder.file("nothing/below")) == nil)
        #expect(!FileSystem.exists(folder.file("nothing")))
        #expect(try !FileSystem.remove(folder.file("nothing")))
    }

    @Test("a tree is removed with everything in it")
    func aTreeIsRemoved() throws {
        let folder = TemporaryDirectory()
        try FileSystem.makeFolders(folder.file("tree/a/b"), mode: 0o700)
        try folder.write("x", to: "tree/a/b/file")
        try folder.write("y", to: "tree/top")
        FileSystem.removeTree(folder.file("tree"))
        #expect(!FileSystem.exists(folder.file("tree")))
        #expect(try FileSystem.entries(of: folder.path).isEmpty)
    }
}
