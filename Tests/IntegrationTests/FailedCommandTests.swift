import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A command that fails leaves the disk as it found it: nothing created, nothing changed (modes
/// included), and the reason said in the user's words. The real `snapshare-server` and
/// `snapshare` binaries, in temporary folders.
@Suite("A failed command leaves the disk as it found it")
struct FailedCommandTests {
    static func server(_ arguments: [String], stdin: String? = nil) throws -> Subprocess.Result {
        try Subprocess.run("snapshare-server", arguments, stdin: stdin, timeout: 120)
    }

    /// A real backup of a class with one admin, written into `directory`.
    static func backup(in directory: TemporaryDirectory) throws -> String {
        let data = directory.file("class-data")
        #expect(try server(["admin", "add", "teacher", "--password-stdin", "--data", data], stdin: "correct horse battery\n").status == 0)
        let file = directory.file("class.backup")
        let written = try server(["backup", "--to", file, "--data", data])
        #expect(written.status == 0, "\(written.stderr)")
        return file
    }

    @Test("restore from a missing, foreign or truncated file creates no data folder and changes no existing one")
    func restoreFromABadFileTouchesNothing() throws {
        let directory = TemporaryDirectory("snapshare-bad-restore")
        let good = try Self.backup(in: directory)
        let bytes = try #require(FileManager.default.contents(atPath: good))
        let truncated = directory.file("truncated.backup")
        FileManager.default.createFile(atPath: truncated, contents: bytes.prefix(bytes.count / 2))
        let foreign = try directory.write("name,notes\nada,hello\n", to: "foreign.backup")
        let folder = directory.file("folder.backup")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let sources = [directory.file("missing.backup"), foreign, truncated, folder]

        let empty = directory.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        chmod(empty, 0o755)
        for source in sources {
            for target in [directory.file("new-data"), empty] {
                let before = FolderState(of: target)
                let result = try Self.server(["restore", "--from", source, "--data", target])
                #expect(result.status == 1, "\(source) into \(target): \(result.stderr)")
                #expect(FolderState(of: target) == before, "\(source) into \(target): was \(before), now \(FolderState(of: target))")
            }
        }
        let missing = try Self.server(["restore", "--from", directory.file("missing.backup"), "--data", directory.file("new-data")])
        #expect(missing.stderr.contains("no backup at \(directory.file("missing.backup")): No such file or directory"), "\(missing.stderr)")
        let notAFile = try Self.server(["restore", "--from", folder, "--data", directory.file("new-data")])
        #expect(notAFile.stderr.contains("not a backup file") && !notAFile.stderr.contains("SQLite"), "\(notAFile.stderr)")
    }

    @Test("restore into a folder holding other files is refused, names what is in it, and changes nothing, its mode included")
    func restoreIntoAForeignFolderIsRefused() throws {
        let directory = TemporaryDirectory("snapshare-foreign-restore")
        let good = try Self.backup(in: directory)
        let folder = directory.file("homework")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try "my notes".write(toFile: folder + "/notes.txt", atomically: false, encoding: .utf8)
        chmod(folder, 0o755)
        let before = FolderState(of: folder)
        let result = try Self.server(["restore", "--from", good, "--data", folder])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("notes.txt") && result.stderr.contains("no Snapshare database")
                && result.stderr.contains("new or empty folder"), "\(result.stderr)")
        #expect(FolderState(of: folder) == before, "now \(FolderState(of: folder))")

        // The same backup into a new folder works, and so does one into an empty folder.
        let fresh = directory.file("restored")
        let restored = try Self.server(["restore", "--from", good, "--data", fresh])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(FileManager.default.fileExists(atPath: fresh + "/snapshare.db"))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.hasPrefix(".") },
            "no staging folder is left beside it")
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let intoEmpty = try Self.server(["restore", "--from", good, "--data", empty])
        #expect(intoEmpty.status == 0, "\(intoEmpty.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty).filter { !$0.hasPrefix("snapshare.db") } == [])
        #expect(try FileManager.default.attributesOfItem(atPath: empty)[.posixPermissions] as? Int == 0o700)
    }

    @Test("a backup or an export into a folder that does not exist says so, with the folder, and creates nothing")
    func outputIntoAMissingFolderSaysSo() throws {
        let directory = TemporaryDirectory("snapshare-missing-folder")
        _ = try Self.backup(in: directory)
        let data = directory.file("class-data")
        let before = FolderState(of: directory.path)
        let missing = directory.file("no/dir")
        let backup = try Self.server(["backup", "--to", missing + "/x.backup", "--data", data])
        #expect(
            backup.status == 1 && backup.stderr.contains("the folder \(missing) does not exist") && !backup.stderr.contains("SQLite"),
            "\(backup.stderr)")
        let export = try Self.server(["export", "--to", missing + "/export", "--data", data])
        #expect(export.status == 1 && export.stderr.contains("the folder \(missing) does not exist"), "\(export.stderr)")
        let archive = try Self.server(["end-term", "--archive", missing + "/fall.backup", "--yes", "--data", data])
        #expect(archive.status == 1 && archive.stderr.contains("the folder \(missing) does not exist"), "\(archive.stderr)")
        #expect(FolderState(of: directory.path) == before, "now \(FolderState(of: directory.path))")
    }

    @Test("an export into a folder that is not empty is refused and leaves it as it was")
    func exportIntoAFullFolderIsRefused() throws {
        let directory = TemporaryDirectory("snapshare-full-export")
        _ = try Self.backup(in: directory)
        let folder = directory.file("export")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try "keep me".write(toFile: folder + "/notes.txt", atomically: false, encoding: .utf8)
        chmod(folder, 0o755)
        let before = FolderState(of: folder)
        let result = try Self.server(["export", "--to", folder, "--data", directory.file("class-data")])
        #expect(result.status == 1 && result.stderr.contains("not empty") && result.stderr.contains("notes.txt"), "\(result.stderr)")
        #expect(FolderState(of: folder) == before)
    }

    @Test("offline commands on a data folder that does not exist, or that fail, create no data folder")
    func offlineCommandsCreateNothingWhenTheyFail() throws {
        let directory = TemporaryDirectory("snapshare-no-data")
        let data = directory.file("data")
        let attempts: [[String]] = [
            ["admin", "add", "teacher"], // a new admin needs a password
            ["admin", "remove", "nobody"],
            ["admin", "reset-password", "nobody", "--password-stdin"],
            ["admin", "delete-user", "nobody", "--yes"],
            ["admin", "purge", "--older-than", "30d", "--yes"],
            ["admin", "audit"],
            ["reset-feeds", "--all"],
            ["compact"],
            ["export", "--to", directory.file("export")],
            ["end-term", "--archive", directory.file("fall.backup"), "--yes"],
            ["backup", "--to", directory.file("x.backup")],
        ]
        for arguments in attempts {
            let result = try Self.server(arguments + ["--data", data], stdin: "a long new password\n")
            #expect(result.status != 0, "\(arguments): \(result.stdout)")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory.path) == [],
                "\(arguments) left: \(FolderState(of: directory.path))")
        }
    }

    @Test("an import that makes no new account writes no password file, and one whose password file cannot be written makes none")
    func rosterImportWritesPasswordsOnlyWithAccounts() throws {
        let directory = TemporaryDirectory("snapshare-roster-files")
        let data = directory.file("data")
        let roster = try directory.write("username\nada\ngrace\n", to: "roster.csv")

        // The password file's folder does not exist: nobody gets an account with a password no one can read.
        let nowhere = directory.file("missing/passwords.csv")
        let refused = try Self.server(["admin", "import-roster", roster, "--passwords", nowhere, "--data", data])
        #expect(
            refused.status == 1 && refused.stderr.contains("the folder \(directory.file("missing")) does not exist"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: data), "no database was made")

        let first = directory.file("first.csv")
        let imported = try Self.server(["admin", "import-roster", roster, "--passwords", first, "--data", data])
        #expect(imported.status == 0 && imported.stdout.contains("2 accounts created"), "\(imported.stdout)\(imported.stderr)")
        #expect(try String(contentsOfFile: first, encoding: .utf8).split(separator: "\n").count == 3)

        let second = directory.file("second.csv")
        let again = try Self.server(["admin", "import-roster", roster, "--passwords", second, "--data", data])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stdout.contains("no account created") && again.stdout.contains("2 already had one")
                && again.stdout.contains("no password file written"), "\(again.stdout)")
        #expect(!FileManager.default.fileExists(atPath: second), "no header-only password file")
    }

    @Test("a roster that cannot be read says why in the system's words")
    func unreadableRosterSaysWhy() throws {
        let directory = TemporaryDirectory("snapshare-roster-unreadable")
        let data = directory.file("data")
        let missing = try Self.server([
            "admin", "import-roster", directory.file("nope.csv"), "--passwords", directory.file("p.csv"), "--data", data,
        ])
        #expect(
            missing.status == 1 && missing.stderr.contains("nope.csv") && missing.stderr.contains("No such file or directory"),
            "\(missing.stderr)")
        let folder = directory.file("roster.csv")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let notAFile = try Self.server(["admin", "import-roster", folder, "--passwords", directory.file("p.csv"), "--data", data])
        #expect(notAFile.status == 1 && notAFile.stderr.contains("Is a directory"), "\(notAFile.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["roster.csv"])
    }

    @Test("an admin export refused by the server leaves no folder, and an empty folder keeps its mode")
    func refusedAdminExportLeavesNothing() throws {
        let server = try TestServer()
        _ = try server.registeredSession("alice")
        let home = TemporaryDirectory("snapshare-student-home")
        let environment = ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath]
        let login = try Subprocess.run(
            "snapshare", ["login", "alice", "--password-stdin"], environment: environment, stdin: "correct horse battery\n")
        #expect(login.status == 0, "\(login.stderr)")
        let directory = TemporaryDirectory("snapshare-refused-export")
        let empty = directory.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        chmod(empty, 0o755)
        for target in [directory.file("export"), empty] {
            let before = FolderState(of: directory.path)
            let result = try Subprocess.run("snapshare", ["admin", "export", "--to", target], environment: environment)
            #expect(result.status == 4, "not an admin: \(result.stderr)")
            #expect(FolderState(of: directory.path) == before, "now \(FolderState(of: directory.path))")
        }
        let missing = try Subprocess.run(
            "snapshare", ["admin", "export", "--to", directory.file("no/dir/export")], environment: environment)
        #expect(
            missing.status == 1 && missing.stderr.contains("the folder \(directory.file("no/dir")) does not exist"), "\(missing.stderr)")
    }
}
