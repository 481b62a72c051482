import Client
import CommandLineParsing
import Foundation
import Posix
import Synchronization
import TestSupport
import Testing

@testable import Server

#if canImport(Glibc)
    import Glibc
#endif

/// `snapshare-server backup` while students post, and `restore` into a fresh folder, against a
/// real server (on PostgreSQL too, when the tests run with SNAPSHARE_TEST_DATABASE=postgresql).
@Suite("Backup and restore")
struct BackupRestoreTests {
    @Test("a backup taken while students post holds every post acknowledged before it, is 0600, restores once, and no id is reissued")
    func backupWhileStudentsPost() throws {
        let server = try TestServer()
        let posters = try (0..<3).map { UncheckedSendable(try server.registeredSession("poster\($0)")) }
        let acknowledged = Mutex<[(id: UInt64, at: Date)]>([])
        // Signalled at each acknowledged post.
        let posted = DispatchSemaphore(value: 0)
        let stop = Atomic<Bool>(false)
        let done = DispatchGroup()
        for (index, poster) in posters.enumerated() {
            done.enter()
            NamedThread.start("poster-\(index)") {
                var sample = index
                while !stop.load(ordering: .relaxed) {
                    sample = sample % 10 + 1
                    if let snap = try? poster.value.post(feed: "Memes", image: TestImages.sample(sample)) {
                        acknowledged.withLock { $0.append((snap.id, Date())) }
                        posted.signal()
                    }
                }
                done.leave()
            }
        }
        defer { stop.store(true, ordering: .relaxed) }
        for _ in 0..<6 { try #require(posted.wait(timeout: .now() + 30) == .success, "the students post") }
        let directory = TemporaryDirectory("snapshare-backup")
        let file = directory.file("class.backup")
        let started = Date()
        let backup = try Subprocess.run("snapshare-server", ["backup", "--to", file] + server.storeArguments, timeout: 120)
        // Posting goes on: a post acknowledged after the backup returned (those before are passed over).
        while posted.wait(timeout: .now()) == .success {}
        #expect(posted.wait(timeout: .now() + 30) == .success, "the students go on posting")
        stop.store(true, ordering: .relaxed)
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(backup.stdout.contains("mode 0600") && backup.stdout.contains("snaps"), "\(backup.stdout)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        let posts = acknowledged.withLock { $0 }
        let before = Set(posts.filter { $0.at < started }.map(\.id))
        #expect(posts.contains { $0.at > started }, "posts went on while the backup ran")

        let restored = directory.file("restored")
        let restore = try Subprocess.run("snapshare-server", ["restore", "--from", file, "--data", restored])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("Restored") && restore.stdout.contains("at least a million"), "\(restore.stdout)")
        let again = try Subprocess.run("snapshare-server", ["restore", "--from", file, "--data", restored])
        #expect(again.status == 1 && again.stderr.contains("not empty"), "a second restore into the folder is refused: \(again.stderr)")

        // A server on the restored folder has every post acknowledged before the backup began.
        let port = ServerProcess.freePort()
        let revived = try ServerProcess(dataDirectory: restored, certsDirectory: directory.file("certs"), port: port)
        defer { revived.killHard() }
        let home = TemporaryDirectory("snapshare-restored-home")
        let settings = ConnectionSettings(host: "127.0.0.1", port: port, caFile: directory.file("certs/ca.pem"))
        let student = try SnapshareSession(settings: settings, state: ClientState(directory: home.path)) { _ in }
        _ = try student.login(username: "poster0", password: "correct horse battery")
        let listed = Set(try student.snaps(feed: nil).snaps.map(\.id))
        #expect(before.isSubset(of: listed), "missing: \(before.subtracting(listed).sorted())")
        let next = try student.post(feed: "Memes", image: TestImages.sample(1))
        #expect(next.id > posts.map(\.id).max()!, "no id the lost server handed out after the backup is handed out again")
    }

    @Test("--backup-every takes a backup each interval into files named by their time, keeps --backup-keep, and counts them")
    func scheduledBackups() throws {
        let directory = TemporaryDirectory("snapshare-scheduled")
        let folder = directory.file("backups")
        let log = LogCapture()
        let server = try TestServer(log: log) {
            $0.backupDirectory = folder
            $0.backupIntervalMilliseconds = 1000
            $0.backupKeep = 2
            $0.metricsAddress = HostPort(host: "127.0.0.1", port: 0)
        }
        let alice = try server.registeredSession("alice")
        _ = try alice.post(feed: "Memes", image: TestImages.sample(4))
        let port = try #require(server.server.metricsPort)
        func taken() throws -> Double { PlainHTTP.sample(try PlainHTTP.get(port: port, "/metrics").body, "snapshare_backups_total") ?? 0 }
        // The fourth backup has been counted and the oldest beyond two removed after it, for the second time.
        try log.waitForLines(containing: "backup: removed the oldest", count: 2, timeout: 60)
        #expect(try taken() >= 4, "one at start, then one a second")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.count == 2, "the oldest are removed beyond --backup-keep: \(files)")
        #expect(files.allSatisfy { $0.wholeMatch(of: /snapshare-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.backup/) != nil }, "\(files)")
        for file in files {
            #expect(try FileManager.default.attributesOfItem(atPath: folder + "/" + file)[.posixPermissions] as? Int == 0o600)
        }
        let restore = try Subprocess.run(
            "snapshare-server", ["restore", "--from", folder + "/" + files.last!, "--data", directory.file("restored")])
        #expect(restore.status == 0 && restore.stdout.contains("snaps              1"), "\(restore.stdout)\(restore.stderr)")
        #expect((PlainHTTP.sample(try PlainHTTP.get(port: port, "/metrics").body, "snapshare_last_backup_timestamp_seconds") ?? 0) > 0)
    }

    @Test("a scheduled backup that cannot be written is logged and counted, and the server goes on")
    func failedScheduledBackup() throws {
        let directory = TemporaryDirectory("snapshare-scheduled-fail")
        let notAFolder = try directory.write("a file", to: "backups")
        let log = LogCapture()
        let server = try TestServer(log: log) {
            $0.backupDirectory = notAFolder
            $0.backupIntervalMilliseconds = 1000
            $0.metricsAddress = HostPort(host: "127.0.0.1", port: 0)
        }
        let port = try #require(server.server.metricsPort)
        func failures() throws -> Double {
            PlainHTTP.sample(try PlainHTTP.get(port: port, "/metrics").body, "snapshare_backup_failures_total") ?? 0
        }
        // The failure is logged, then counted: the count is the last sign.
        try eventually("a failed backup to be counted", every: 0.05) { try failures() >= 1 }
        #expect(try failures() >= 1)
        #expect(!log.lines(containing: "backup into \(notAFolder) failed").isEmpty)
        _ = try server.registeredSession("still")
    }

    @Test("compact gives the space of deleted snaps back while the server runs, and says how much")
    func compactGivesSpaceBack() throws {
        let server = try TestServer()
        let poster = try server.registeredSession("poster")
        for round in 0..<20 { _ = try poster.post(feed: "Memes", image: TestImages.sample(round % 10 + 1)) }
        let reset = try Subprocess.run("snapshare-server", ["reset-feeds", "--all"] + server.storeArguments, stdin: "y\n")
        #expect(reset.status == 0, "\(reset.stderr)")
        let result = try Subprocess.run("snapshare-server", ["compact"] + server.storeArguments, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let sizes = result.stdout.matches(of: /([0-9.]+) MB/).compactMap { Double($0.1) }
        #expect(sizes.count == 3, "\(result.stdout)")
        if sizes.count == 3 {
            if TestServer.usesSQLite {
                #expect(sizes[0] - sizes[1] >= 1.0, "twenty pictures (about 2 MB) given back: \(result.stdout)")
            } else {
                // PostgreSQL frees a deleted row only once no transaction anywhere in the cluster
                // may still see it, and the test cluster is shared by every test running at once:
                // what it gives back depends on them. It never grows the database.
                #expect(sizes[1] <= sizes[0], "\(result.stdout)")
            }
        }
        _ = try poster.post(feed: "Memes", image: TestImages.sample(1))
    }

    @Test("a file that is not a backup, or a damaged one, is refused before anything is written")
    func damagedBackupsAreRefused() throws {
        let directory = TemporaryDirectory("snapshare-bad-backup")
        let junk = try directory.write("not a database", to: "junk.backup")
        let result = try Subprocess.run("snapshare-server", ["restore", "--from", junk, "--data", directory.file("data")])
        #expect(result.status == 1 && result.stderr.contains("is not a Snapshare backup"), "\(result.stderr)")
        let missing = try Subprocess.run(
            "snapshare-server", ["restore", "--from", directory.file("none"), "--data", directory.file("data")])
        #expect(missing.status == 1 && missing.stderr.contains("no backup at"), "\(missing.stderr)")
        let existing = try Subprocess.run("snapshare-server", ["backup", "--to", junk, "--data", directory.file("data")])
        #expect(existing.status == 1, "\(existing.stderr)")
    }
}

/// The backup format is one for both engines: SQLite → backup → PostgreSQL → backup → SQLite.
/// Needs PostgreSQL, which `.ci/run` installs; it runs once, in the first half of the suite.
@Suite("Backups between engines")
struct PostgresBackupTests {
    @Test("SQLite → backup → PostgreSQL → backup → SQLite keeps every row and raises every id counter")
    func roundTrip() throws {
        let cluster = try #require(PostgresCluster.shared, "PostgreSQL's programs are missing (postgresql-15; .ci/run installs it)")
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let bob = try server.registeredSession("bob")
        let snap = try alice.post(feed: "Memes", image: TestImages.sample(5))
        _ = try bob.open(snapID: snap.id)
        _ = try alice.post(feed: "Random", image: TestImages.sample(6))
        // A report and a suspension travel too.
        try bob.report(snapID: snap.id, reason: "off topic")
        try server.makeAdmin("teacher").suspend("bob", for: 86_400_000, reason: "a day off")
        let directory = TemporaryDirectory("snapshare-round-trip")
        func run(_ arguments: [String]) throws -> Subprocess.Result {
            let result = try Subprocess.run("snapshare-server", arguments, timeout: 120)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        let first = try run(["backup", "--to", directory.file("one.backup")] + server.storeArguments)
        let (database, drop) = try cluster.makeDatabase()
        defer { drop() }
        _ = try run(["restore", "--from", directory.file("one.backup"), "--database", database])
        let second = try run(["backup", "--to", directory.file("two.backup"), "--database", database])
        _ = try run(["restore", "--from", directory.file("two.backup"), "--data", directory.file("back")])
        let third = try run(["backup", "--to", directory.file("three.backup"), "--data", directory.file("back")])
        func all(_ output: String) -> [Substring] { output.split(separator: "\n").filter { $0.hasPrefix("  ") } }
        // Each restore adds its own line to the audit log; every other table is copied as it is.
        func rows(_ output: String) -> [Substring] { all(output).filter { !$0.contains("audit_log") } }
        func audited(_ output: String) -> Int? {
            all(output).first { $0.contains("audit_log") }?.split(separator: " ").last.flatMap { Int($0) }
        }
        // Every table of the schema is listed, but those the copy leaves out on purpose.
        let catalog = try SQLStore.sqlite(path: directory.file("one.backup"), readOnly: true).engine.catalog()
        let listed = all(first.stdout).compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(
            Set(listed) == Set(catalog.tables.map(\.name)).subtracting(DatabaseCopy.leftOut) && listed.count == Set(listed).count,
            "every table once: \(first.stdout)")
        #expect(
            audited(second.stdout) == audited(first.stdout).map { $0 + 1 } && audited(third.stdout) == audited(first.stdout).map { $0 + 2 },
            "\(first.stdout)\n\(third.stdout)")
        #expect(rows(first.stdout) == rows(second.stdout) && rows(second.stdout) == rows(third.stdout), "\(first.stdout)\n\(third.stdout)")
        for table in ["views", "reports", "suspensions"] {
            #expect(rows(first.stdout).contains { $0.hasSuffix(" 1") && $0.contains(table) }, "\(table): \(first.stdout)")
        }
    }
}
