import Foundation
import Server
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The data folder and the database files in it hold password hashes, token hashes and every
/// image: only the server's own user may read them, whatever the umask and the folder were.
@Suite(.enabled(if: TestServer.usesSQLite, "about the SQLite files; this run stores in PostgreSQL"))
struct DataFolderPermissionTests {
    /// A data folder made the way `mkdir` makes one under the usual umask: 0755.
    private func openDataFolder(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("data")
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o755])
        #expect(try permissions(path) == 0o755)
        return path
    }

    private func permissions(_ path: String) throws -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { throw ProcessError("no file at \(path)") }
        return status.st_mode & 0o7777
    }

    private func expectOwnerOnly(_ data: String, _ when: String = "") throws {
        #expect(try permissions(data) == 0o700, "the data folder \(when)")
        for name in ["snapshare.db", "snapshare.db-wal", "snapshare.db-shm"] {
            #expect(try permissions(data + "/" + name) == 0o600, "\(name) \(when)")
        }
    }

    @Test func aServerStartedOnAnOpenDataFolderMakesItAndItsDatabaseFilesOwnerOnly() throws {
        let directory = TemporaryDirectory("snapshare-permissions")
        let data = try openDataFolder(in: directory)
        let server = try TestServer { $0.dataDirectory = data }
        // A post makes sure the WAL and its index exist and have been written to.
        let alice = try server.registeredSession("alice")
        _ = try alice.post(feed: "Memes", image: TestImages.sample(4))
        try expectOwnerOnly(data)
    }

    @Test func databaseFilesLeftReadableByOthersAreTightenedAtTheNextStart() throws {
        let first = try TestServer()
        let alice = try first.registeredSession("alice")
        let posted = try alice.post(feed: "Memes", image: TestImages.sample(4))
        // A copy of a live database as an older server version, or a careless backup restore,
        // would leave it: the WAL and its index included, everything readable by others.
        let directory = TemporaryDirectory("snapshare-permissions")
        let data = try openDataFolder(in: directory)
        for name in ["snapshare.db", "snapshare.db-wal", "snapshare.db-shm"] {
            try FileManager.default.copyItem(atPath: first.dataPath + "/" + name, toPath: data + "/" + name)
            chmod(data + "/" + name, 0o644)
        }
        first.stop()

        let second = try TestServer { $0.dataDirectory = data }
        try expectOwnerOnly(data, "after the restart")
        let (returning, _) = try second.session()
        _ = try returning.login(username: "alice", password: "correct horse battery")
        #expect(try returning.snaps(feed: nil).snaps.map(\.id) == [posted.id], "the copied database is intact")
    }

    @Test func theOfflineAdminCommandCreatesAnOwnerOnlyDatabase() throws {
        let directory = TemporaryDirectory("snapshare-permissions")
        let data = try openDataFolder(in: directory)
        try OfflineAdmin.addAdmin(dataDirectory: data, username: "teacher", password: "correct horse battery")
        #expect(try permissions(data) == 0o700)
        #expect(try permissions(data + "/snapshare.db") == 0o600)
    }
}
