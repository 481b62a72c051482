import Client
import Foundation
import Server
import Synchronization
import TestSupport
import Testing

/// The audit log against a real server: admin requests from the client (allowed or refused),
/// offline commands and restores, each recorded once with who; it survives backup and restore.
@Suite struct AuditLogTests {
    struct Row: Decodable, Equatable, CustomStringConvertible {
        let actor: String
        let action: String
        let target: String
        let result: String
        var description: String { "\(actor) | \(action) | \(target) | \(result)" }
    }

    static let day: Int64 = 86_400_000
    static let offline = "offline:" + String(cString: getpwuid(geteuid()).pointee.pw_name)

    private func audit(_ arguments: [String]) throws -> [Row] {
        let result = try Subprocess.run("snapshare-server", ["admin", "audit", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([Row].self, from: Data(result.stdout.utf8))
    }

    /// The audit log of a class as a test expects it to grow, step by step: after each command
    /// exactly the entries it should add, in order, and nothing else.
    final class ExpectedLog {
        let read: () throws -> [Row]
        /// Waits until what was done is recorded (an offline command has written before it exits).
        let settle: () throws -> Void
        private(set) var rows: [Row] = []

        init(settle: @escaping () throws -> Void = {}, read: @escaping () throws -> [Row]) {
            self.settle = settle
            self.read = read
        }
        /// An online request's entry is a write of its own, queued before its reply goes out:
        /// in once the server's queued writes have committed.
        convenience init(_ server: TestServer) {
            self.init(
                settle: { try server.waitForQueuedWrites() },
                read: {
                    try server.openStore().auditEntries(since: 0, limit: 10_000).map {
                        Row(actor: $0.actor, action: $0.action, target: $0.target, result: $0.result)
                    }
                })
        }

        /// Compares the whole log, once settled, with what it held plus `added`. A result ending
        /// in "…" is a prefix of the words expected.
        func expect(_ added: [Row], after step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            rows += added
            try settle()
            let actual = try read()
            let matches =
                actual.count == rows.count
                && zip(actual, rows).allSatisfy { have, want in
                    guard want.result.hasSuffix("…") else { return have == want }
                    return have.actor == want.actor && have.action == want.action && have.target == want.target
                        && have.result.hasPrefix(String(want.result.dropLast()))
                }
            #expect(
                matches,
                """
                after \(step), the log is
                \(actual.map(\.description).joined(separator: "\n"))
                expected
                \(rows.map(\.description).joined(separator: "\n"))
                """,
                sourceLocation: sourceLocation)
            if !matches { rows = actual }
        }
    }

    @Test("an online delete, a refused attempt, an offline reset-password and a restore each appear once, with who")
    func everyAdminActionOnceWithWho() throws {
        let server = try TestServer()
        let alice = try server.registeredSession("alice")
        let mallory = try server.registeredSession("mallory")
        let teacher = try server.makeAdmin("teacher")
        let snap = try alice.post(feed: "Memes", image: TestImages.sample(2))
        #expect(clientError { try mallory.deleteSnap(snap.id) }?.serverCode == .forbidden)
        try teacher.deleteSnap(snap.id)
        let reset = try Subprocess.run(
            "snapshare-server", ["admin", "reset-password", "alice", "--password-stdin"] + server.storeArguments,
            stdin: "a new password\n")
        #expect(reset.status == 0, "\(reset.stderr)")
        let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
        // The client's requests are recorded by a write of their own, queued before the reply.
        try server.waitForQueuedWrites()
        let rows = try audit(server.storeArguments)
        #expect(
            rows.filter { $0 == Row(actor: "teacher", action: "AdminDeleteSnap", target: "snap \(snap.id)", result: "ok") }.count == 1,
            "\(rows)")
        #expect(
            rows.filter { $0 == Row(actor: "mallory", action: "AdminDeleteSnap", target: "snap \(snap.id)", result: "FORBIDDEN") }.count
                == 1)
        #expect(
            rows.filter { $0 == Row(actor: "offline:\(user)", action: "admin reset-password", target: "user alice", result: "ok") }.count
                == 1)
        #expect(rows.filter { $0.action == "admin add" && $0.target == "user teacher" }.count == 1, "makeAdmin is the offline admin add")
        #expect(!rows.contains { $0.target.contains("a new password") }, "never a password")

        // The same log through the protocol, for admins only, and on the command line.
        let online = try teacher.auditLog(since: 0)
        #expect(online.filter { $0.action == "AdminDeleteSnap" && $0.actor == "teacher" && $0.result == "ok" }.count == 1, "\(online)")
        #expect(clientError { _ = try mallory.auditLog(since: 0) }?.serverCode == .forbidden)
        let cli = CommandLineTests.Student(server: server)
        #expect(try cli.run("login", "teacher", "--password-stdin", stdin: "correct horse battery\n").status == 0)
        let printed = try cli.run("admin", "audit", "--since", "1h")
        #expect(
            printed.status == 0 && printed.stdout.contains("AdminDeleteSnap") && printed.stdout.contains("snap \(snap.id)"),
            "\(printed.stdout)")
        let json = try cli.run("admin", "audit", "--json")
        #expect(json.stdout.contains("\"action\":\"admin reset-password\""), "\(json.stdout)")

        let directory = TemporaryDirectory("snapshare-audit-restore")
        #expect(try Subprocess.run("snapshare-server", ["backup", "--to", directory.file("b")] + server.storeArguments).status == 0)
        #expect(
            try Subprocess.run("snapshare-server", ["restore", "--from", directory.file("b"), "--data", directory.file("data")]).status == 0
        )
        let restored = try audit(["--data", directory.file("data")])
        #expect(Array(restored.prefix(rows.count)) == rows, "the log survives backup and restore")
        #expect(
            restored.filter { $0.action == "restore" && $0.actor == "offline:\(user)" && $0.target == "from \(directory.file("b"))" }.count
                == 1)
        let table = try Subprocess.run("snapshare-server", ["admin", "audit", "--since", "1h", "--data", directory.file("data")])
        #expect(table.stdout.hasPrefix("TIME") && table.stdout.contains("AdminDeleteSnap"), "\(table.stdout)")
    }

    @Test("every snapshare admin command is one entry with its result, a refused one too; the listings and the log itself are none")
    func everyOnlineAdminCommandIsOneEntry() throws {
        // The server's clock runs 40 days late at first, then is the machine's (whose time the offline entries carry).
        let late = Mutex<Int64>(40 * Self.day)
        let server = try TestServer(clock: WallClock { WallClock.system.now() - late.withLock { $0 } }) { $0.moderation = .queue }
        let log = ExpectedLog(server)
        // One snap from 40 days ago, for the purge; sessions that old have expired, so everyone logs in afterwards.
        let old = try server.registeredSession("alice").post(feed: "Memes", image: TestImages.sample(1)).id
        late.withLock { $0 = 0 }
        let (alice, aliceHome) = try server.session()
        _ = try alice.login(username: "alice", password: "correct horse battery")
        let teacherHome = TemporaryDirectory("snapshare-teacher")
        let malloryHome = TemporaryDirectory("snapshare-mallory")
        let (_, teacherEnvironment) = try ClassDataTests.loggedInAdmin(server, home: teacherHome)
        try log.expect(
            [Row(actor: Self.offline, action: "admin add", target: "user teacher", result: "ok")], after: "the offline admin add")
        let omar = try server.registeredSession("omar")
        _ = try server.registeredSession("mallory")
        let mallory = ClassDataTests.cli(server, malloryHome)
        #expect(
            try Subprocess.run(
                "snapshare", ["login", "mallory", "--password-stdin"], environment: mallory, stdin: "correct horse battery\n"
            ).status == 0)
        let snaps = try (2...5).map { try alice.post(feed: "Memes", image: TestImages.sample($0)).id }
        try log.expect([], after: "students registering and posting")

        /// Runs `snapshare admin ARGUMENTS` as the teacher; `adds` is what the log gains: action, target, result.
        func teacher(
            _ arguments: String..., stdin: String? = nil, adds added: (String, String, String)...,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let result = try Subprocess.run("snapshare", ["admin"] + arguments, environment: teacherEnvironment, stdin: stdin)
            #expect(
                (result.status == 0) == added.allSatisfy { $0.2 == "ok" },
                "admin \(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
            try log.expect(
                added.map { Row(actor: "teacher", action: $0.0, target: $0.1, result: $0.2) },
                after: "admin \(arguments.joined(separator: " "))", sourceLocation: sourceLocation)
        }

        try teacher("create-feed", "Lecture", adds: ("AdminCreateFeed", "feed Lecture", "ok"))
        try teacher("reset-feed", "Lecture", "--yes", adds: ("AdminResetFeeds", "feed Lecture", "ok"))
        try teacher("delete-feed", "Lecture", "--yes", adds: ("AdminDeleteFeed", "feed Lecture", "ok"))
        try teacher("reports")
        for id in snaps.prefix(3) { try teacher("approve", "\(id)", adds: ("AdminApproveSnap", "snap \(id) approved", "ok")) }
        try teacher(
            "reject", "\(snaps[3])", "--reason", "off topic", adds: ("AdminApproveSnap", "snap \(snaps[3]) rejected: off topic", "ok"))
        _ = try omar.open(snapID: snaps[0])
        try teacher("restore-view", "\(snaps[0])", "omar", adds: ("AdminRestoreView", "snap \(snaps[0]) for omar", "ok"))
        try teacher("view", "\(snaps[1])", adds: ("AdminViewSnap", "snap \(snaps[1])", "ok"))
        try omar.report(snapID: snaps[2], reason: "blurry")
        try teacher("resolve", "\(snaps[2])", "--dismiss", adds: ("AdminResolveReport", "snap \(snaps[2]) dismissed", "ok"))
        try teacher("suspend", "omar", "--for", "1h", "--reason", "spam", adds: ("AdminSuspend", "user omar for 1h: spam", "ok"))
        try teacher("unsuspend", "omar", adds: ("AdminUnsuspend", "user omar", "ok"))
        try teacher("disable", "omar", adds: ("AdminSetDisabled", "user omar disabled", "ok"))
        try teacher("enable", "omar", adds: ("AdminSetDisabled", "user omar enabled", "ok"))
        try teacher("rename", "omar", "olga", adds: ("AdminRenameUser", "user omar renamed olga", "ok"))
        try teacher("unlock", "alice", adds: ("AdminUnlock", "user alice", "ok"))
        try teacher("unlock", "--address", "203.0.113.7", adds: ("AdminUnlockAddress", "address 203.0.113.7", "ok"))
        try teacher("promote", "alice", adds: ("AdminSetAdmin", "user alice made admin", "ok"))
        try teacher("demote", "alice", adds: ("AdminSetAdmin", "user alice no longer admin", "ok"))
        try teacher(
            "reset-password", "alice", "--password-stdin", stdin: "a new password\n", adds: ("AdminResetPassword", "user alice", "ok"))
        try teacher("users")
        try teacher("stats")
        try teacher("audit")
        try teacher("roster")
        try server.openStore().putRosterEntry(RosterEntry(name: "erin", displayName: "Erin", isAdmin: false, addedAt: 0))
        try teacher("roster", "remove", "erin", adds: ("AdminRemoveRosterEntry", "roster name erin", "ok"))
        try teacher("roster", "remove", "erin", adds: ("AdminRemoveRosterEntry", "roster name erin", "NOT_FOUND"))
        try teacher("purge", "--older-than", "30d", "--yes", adds: ("AdminPurge", "snaps posted more than 4w2d ago", "ok"))
        #expect(try server.count("SELECT count(*) FROM snaps WHERE id = \(Int64(old))") == 0)
        let export = TemporaryDirectory("snapshare-audit-export")
        try teacher("export", "--to", export.file("class"), adds: ("AdminExportSnaps", "export of 3 snaps to 127.0.0.1", "ok"))
        #expect(FileManager.default.fileExists(atPath: export.file("class/index.html")))
        try teacher("delete-snap", "\(snaps[2])", adds: ("AdminDeleteSnap", "snap \(snaps[2])", "ok"))
        try teacher("delete-snap", "9999", adds: ("AdminDeleteSnap", "snap 9999", "NOT_FOUND"))
        try teacher("delete-user", "olga", "--yes", adds: ("AdminDeleteUser", "user olga", "ok"))
        try teacher("reset-feeds", "--all", "--yes", adds: ("AdminResetFeeds", "every feed", "ok"))

        // A student's attempts: refused, and recorded as such; a refused listing or dry run is not an action.
        func student(_ arguments: String..., adds added: (String, String)..., sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try Subprocess.run("snapshare", ["admin"] + arguments, environment: mallory)
            #expect(result.status != 0 && result.stderr.contains("needs the role"), "\(result.stderr)", sourceLocation: sourceLocation)
            try log.expect(
                added.map { Row(actor: "mallory", action: $0.0, target: $0.1, result: "FORBIDDEN") },
                after: "mallory's admin \(arguments.joined(separator: " "))", sourceLocation: sourceLocation)
        }
        try student("delete-snap", "\(snaps[0])", adds: ("AdminDeleteSnap", "snap \(snaps[0])"))
        try student("export", "--to", export.file("mallory"), adds: ("AdminExportSnaps", "export to 127.0.0.1"))
        try student("view", "\(snaps[0])", adds: ("AdminViewSnap", "snap \(snaps[0])"))
        try student("users")
        try student("roster")
        try student("roster", "remove", "omar", adds: ("AdminRemoveRosterEntry", "roster name omar"))
        try student("purge", "--older-than", "1d", "--yes")
        try teacher("create-feed", "Last", adds: ("AdminCreateFeed", "feed Last", "ok"))
        withExtendedLifetime(aliceHome) {}
    }

    @Test("an online export is one entry however many pictures it fetches; a look outside it, or a second look, is one entry each")
    func anOnlineExportIsOneEntry() throws {
        let server = try TestServer()
        let log = ExpectedLog(server)
        let home = TemporaryDirectory("snapshare-teacher")
        let (teacher, environment) = try ClassDataTests.loggedInAdmin(server, home: home)
        // More than one page (200): the export asks twice, and fetches every picture.
        let pictures = try [ClassDataTests.red, ClassDataTests.blue].map { try ClassDataTests.solid($0, width: 16, height: 16) }
        for index in 0..<230 { _ = try teacher.post(feed: ["Memes", "Random", "Dog Spots"][index % 3], image: pictures[index % 2]) }
        try log.expect([Row(actor: Self.offline, action: "admin add", target: "user teacher", result: "ok")], after: "posting 230 snaps")
        let directory = TemporaryDirectory("snapshare-audit-export")
        let export = try Subprocess.run(
            "snapshare", ["admin", "export", "--to", directory.file("class")], environment: environment, timeout: 120)
        #expect(export.status == 0 && export.stdout.contains("Exported 230 snaps"), "\(export.stdout)\(export.stderr)")
        try log.expect(
            [Row(actor: "teacher", action: "AdminExportSnaps", target: "export of 230 snaps to 127.0.0.1", result: "ok")],
            after: "one export of 230 snaps")

        // The same steps by hand on one connection: what the listing returned is covered, once.
        let first = try teacher.exportSnaps(after: 0)
        try log.expect(
            [Row(actor: "teacher", action: "AdminExportSnaps", target: "export of 230 snaps to 127.0.0.1", result: "ok")],
            after: "a new export's first page")
        let listed = first.snaps.map(\.id)
        _ = try teacher.adminView(listed[0])
        _ = try teacher.adminView(listed[1])
        try log.expect([], after: "two pictures the page listed")
        _ = try teacher.adminView(listed[0])
        try log.expect(
            [Row(actor: "teacher", action: "AdminViewSnap", target: "snap \(listed[0])", result: "ok")],
            after: "a second look at the same snap")
        let beyond = try #require(try teacher.exportSnaps(after: listed.last!).snaps.first).id
        try log.expect([], after: "the page that continues the export")
        _ = try teacher.adminView(listed[2])
        try log.expect(
            [Row(actor: "teacher", action: "AdminViewSnap", target: "snap \(listed[2])", result: "ok")],
            after: "a look at a snap of the page before")
        _ = try teacher.adminView(beyond)
        try log.expect([], after: "a picture of the current page")
        let other = try server.makeAdmin("assistant")
        try log.expect([Row(actor: Self.offline, action: "admin add", target: "user assistant", result: "ok")], after: "a second admin")
        _ = try other.adminView(listed[3])
        try log.expect(
            [Row(actor: "assistant", action: "AdminViewSnap", target: "snap \(listed[3])", result: "ok")],
            after: "another admin's look, on another connection")
        _ = try teacher.exportSnaps(after: 17)
        try log.expect(
            [
                Row(
                    actor: "teacher", action: "AdminExportSnaps", target: "export of the snaps after id 17 (230 stored) to 127.0.0.1",
                    result: "ok")
            ],
            after: "a listing that does not continue the export")
        let end = try teacher.exportSnaps(after: 100_000)
        #expect(end.snaps.isEmpty)
        try log.expect(
            [
                Row(
                    actor: "teacher", action: "AdminExportSnaps",
                    target: "export of the snaps after id \(100_000) (230 stored) to 127.0.0.1", result: "ok")
            ],
            after: "an empty listing")
        _ = try teacher.adminView(listed[5])
        try log.expect(
            [Row(actor: "teacher", action: "AdminViewSnap", target: "snap \(listed[5])", result: "ok")],
            after: "a look once the export ended")
        let view = try Subprocess.run("snapshare", ["admin", "view", "\(listed[6])"], environment: environment)
        #expect(view.status == 0, "\(view.stderr)")
        try log.expect([Row(actor: "teacher", action: "AdminViewSnap", target: "snap \(listed[6])", result: "ok")], after: "admin view")
    }

    @Test("end-term on a one-class server is one entry with its result, a refused one too")
    func endTermIsOneEntry() throws {
        let server = try TestServer()
        let log = ExpectedLog(server)
        let alice = try server.registeredSession("alice")
        _ = try alice.post(feed: "Memes", image: TestImages.sample(1))
        let files = TemporaryDirectory("snapshare-audit-term")
        func offline(_ arguments: [String], status: Int32 = 0, _ added: [Row], sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try Subprocess.run("snapshare-server", arguments + server.storeArguments)
            #expect(result.status == status, "\(arguments): \(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
            try log.expect(added, after: arguments.joined(separator: " "), sourceLocation: sourceLocation)
        }
        func entry(_ target: String, _ result: String = "ok") -> Row {
            Row(actor: Self.offline, action: "end-term", target: target, result: result)
        }
        let term = files.file("term.db")
        try offline(
            ["end-term", "--archive", term, "--keep-accounts"], status: 2,
            [entry("archive \(term), accounts kept", "refused: End the term…")])
        try offline(["end-term", "--archive", term, "--keep-accounts", "--yes"], [entry("archive \(term), accounts kept")])
        try offline(["end-term", "--archive", term, "--yes"], status: 1, [entry("archive \(term)", "refused: \(term) exists already…")])
    }

    @Test("every snapshare-server maintenance command is one entry with its result, a refused one too; admin audit is none")
    func everyOfflineCommandIsOneEntry() throws {
        let server = try TestServer()
        let log = ExpectedLog(server)
        let alice = try server.registeredSession("alice")
        for sample in 1...3 { _ = try alice.post(feed: "Memes", image: TestImages.sample(sample)) }
        _ = try alice.post(feed: "Random", image: TestImages.sample(4))
        let files = TemporaryDirectory("snapshare-audit-offline")
        func offline(
            _ arguments: [String], stdin: String? = nil, status: Int32 = 0, store: [String]? = nil, _ added: [Row],
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let result = try Subprocess.run("snapshare-server", arguments + (store ?? server.storeArguments), stdin: stdin)
            #expect(
                result.status == status, "\(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)",
                sourceLocation: sourceLocation)
            try log.expect(added, after: arguments.joined(separator: " "), sourceLocation: sourceLocation)
        }
        func entry(_ action: String, _ target: String, _ result: String = "ok") -> Row {
            Row(actor: Self.offline, action: action, target: target, result: result)
        }

        try offline(["admin", "add", "helper", "--password-stdin"], stdin: "helper password\n", [entry("admin add", "user helper")])
        try offline(
            ["admin", "add", "newcomer"], status: 2,
            [entry("admin add", "user newcomer", "refused: newcomer does not exist yet; give its password with --password-stdin")])
        try offline(["admin", "remove", "helper"], [entry("admin remove", "user helper")])
        try offline(
            ["admin", "reset-password", "alice", "--password-stdin"], stdin: "a new password\n",
            [entry("admin reset-password", "user alice")])
        try offline(
            ["admin", "reset-password", "nobody", "--password-stdin"], stdin: "a new password\n", status: 1,
            [entry("admin reset-password", "user nobody", "NOT_FOUND")])
        let roster = files.file("roster.csv")
        try "username,display_name,role\nsam1,Sam One,\nsam2,,student\nsam3,,\nsam4,,admin\nsam5,,\nbad name!,,\nsam1,,\nsam6,,teacher\n"
            .write(toFile: roster, atomically: true, encoding: .utf8)
        try offline(
            ["admin", "import-roster", roster, "--passwords", files.file("passwords.csv")], status: 1,
            [entry("admin import-roster", "5 names from \(roster)", "partial: 5 added, 3 refused")])
        try offline(["admin", "delete-user", "nobody", "--yes"], status: 1, [entry("admin delete-user", "user nobody", "NOT_FOUND")])
        try offline(
            ["admin", "delete-user", "sam5"], status: 2, [entry("admin delete-user", "user sam5", "refused: Delete the account sam5…")])
        try offline(["admin", "delete-user", "sam5", "--yes"], [entry("admin delete-user", "user sam5")])
        try offline(["admin", "roster"], [entry("admin roster", "the roster")])
        try offline(["admin", "roster", "remove", "sam4"], [entry("admin roster remove", "roster name sam4")])
        try offline(["admin", "roster", "remove", "sam4"], status: 1, [entry("admin roster remove", "roster name sam4", "NOT_FOUND")])
        try offline(
            ["admin", "create-class", "cs193p-f26", "--name", "CS193P Fall 2026", "--owner", "alice", "--code", "JOIN-F26"],
            [entry("admin create-class", "class cs193p-f26")])
        try offline(
            ["admin", "create-class", "cs193p-f26", "--name", "Again", "--owner", "alice"], status: 1,
            [entry("admin create-class", "class cs193p-f26", "ALREADY_EXISTS")])
        try offline(
            ["admin", "create-class", "CS193P", "--name", "Upper", "--owner", "alice"], status: 2,
            [entry("admin create-class", "class CS193P", "refused: class handles use only lower-case letters, digits and '-'")])
        try offline(["admin", "classes"], [entry("admin classes", "the classes")])
        try offline(
            ["admin", "set-role", "sam1", "ta", "--class", "cs193p-f26"], [entry("admin set-role", "user sam1 ta in cs193p-f26")])
        try offline(
            ["admin", "set-role", "alice", "student", "--class", "cs193p-f26"], status: 1,
            [entry("admin set-role", "user alice student in cs193p-f26", "ALREADY_EXISTS")])
        try offline(
            ["admin", "set-role", "sam1", "boss", "--class", "cs193p-f26"], status: 2,
            [
                entry(
                    "admin set-role", "user sam1 boss in cs193p-f26",
                    "refused: the role is one of owner, instructor, ta, student (not 'boss')")
            ])
        try offline(["admin", "audit"], [])
        try offline(
            ["export", "--to", files.file("export")], status: 2,
            [
                entry(
                    "export", "to \(files.file("export"))",
                    "refused: this server has 2 classes (class, cs193p-f26); say which with --class HANDLE")
            ])
        try offline(
            ["export", "--to", files.file("export"), "--class", "class"], [entry("export", "4 snaps to \(files.file("export"))")])
        try offline(
            ["export", "--to", files.file("export"), "--class", "class"], status: 1,
            [entry("export", "to \(files.file("export"))", "refused: …")])
        try offline(["export"], status: 2, [entry("export", "", "refused: --to names the new folder for the export")])
        try offline(["backup", "--to", files.file("backup.db")], [entry("backup", "to \(files.file("backup.db"))")])
        try offline(
            ["backup", "--to", files.file("backup.db")], status: 1,
            [entry("backup", "to \(files.file("backup.db"))", "refused: \(files.file("backup.db")) exists already…")])
        try offline(["compact"], [entry("compact", server.configuration.databaseDescription)])
        try offline(["reset-feeds", "--feed", "Random", "--class", "class"], [entry("reset-feeds", "feed Random")])
        try offline(
            ["reset-feeds", "--feed", "Nowhere", "--class", "class"], status: 1, [entry("reset-feeds", "feed Nowhere", "NOT_FOUND")])
        try offline(
            ["admin", "purge", "--older-than", "1ms", "--yes", "--class", "class"], [entry("admin purge", "snaps posted more than 1ms ago")]
        )
        try offline(
            ["admin", "purge", "--older-than", "1ms", "--yes", "--class", "class"], [entry("admin purge", "snaps posted more than 1ms ago")]
        )
        // The whole server's end of term is refused on a server of several classes (see endTermIsOneEntry).
        try offline(
            ["end-term", "--archive", files.file("term.db"), "--keep-accounts", "--yes"], status: 2,
            [entry("end-term", "archive \(files.file("term.db")), accounts kept", "refused: this server has 2 classes…")])

        // A restore's entry goes into the restored database; one refused goes into the one it refused.
        try offline(
            ["restore", "--from", files.file("backup.db")], status: 1,
            [entry("restore", "from \(files.file("backup.db"))", "refused: the target is not empty…")])
        let restoredLog = ExpectedLog { try self.audit(["--data", files.file("restored")]) }
        let restore = try Subprocess.run(
            "snapshare-server", ["restore", "--from", files.file("backup.db"), "--data", files.file("restored")])
        #expect(restore.status == 0, "\(restore.stderr)")
        let backedUp = Array(log.rows.prefix { !($0.action == "backup" && $0.result == "ok") })
        try restoredLog.expect(backedUp + [entry("restore", "from \(files.file("backup.db"))")], after: "a restore into an empty folder")

        // A migration's goes into the new PostgreSQL database; one refused into the SQLite folder it came from.
        let cluster = try #require(PostgresCluster.shared, "migrate needs PostgreSQL's programs (postgresql-15)")
        let (conninfo, drop) = try cluster.makeDatabase()
        defer { drop() }
        let migrate = try Subprocess.run("snapshare-server", ["migrate", "--from", files.file("restored"), "--to", conninfo])
        #expect(migrate.status == 0, "\(migrate.stderr)")
        let migratedLog = ExpectedLog { try self.audit(["--database", conninfo]) }
        try migratedLog.expect(restoredLog.rows + [entry("migrate", "from \(files.file("restored"))")], after: "a migration")
        guard TestServer.usesSQLite else { return }
        try offline(
            ["migrate", "--from", server.dataPath, "--to", conninfo], status: 1, store: [],
            [entry("migrate", "from \(server.dataPath)", "refused: the target is not empty…")])
    }

    @Test(
        """
        a refused command in a folder without a database leaves the folder as it was, \
        and says it is not in the audit log (a usage error says only what is wrong)
        """
    )
    func aRefusalWithoutADatabaseLeavesNoDatabase() throws {
        let files = TemporaryDirectory("snapshare-audit-empty")
        try FileManager.default.createDirectory(atPath: files.file("empty"), withIntermediateDirectories: true)
        for (arguments, status) in [
            (["admin", "delete-user", "nobody", "--yes"], Int32(1)), (["admin", "remove", "nobody"], 1),
            (["admin", "add", "newcomer"], 2), (["backup", "--to", files.file("b.db")], 1), (["compact"], 1),
            (["export", "--to", files.file("export")], 1), (["restore", "--from", files.file("missing.db")], 1),
        ] {
            for data in [files.file("empty"), files.file("absent")] {
                let result = try Subprocess.run("snapshare-server", arguments + ["--data", data])
                // A usage error says only what is wrong with the command line: nothing ran to record.
                #expect(
                    result.status == status && result.stderr.contains("not recorded in the audit log") == (status != 2),
                    "\(arguments): \(result.stderr)")
                #expect((try? FileManager.default.contentsOfDirectory(atPath: files.file("empty"))) == [], "\(arguments) left files")
                #expect(!FileManager.default.fileExists(atPath: files.file("absent")), "\(arguments) made the folder")
            }
        }
        // Likewise an empty PostgreSQL database: it gets no tables (reading its log then fails).
        let (conninfo, drop) = try #require(PostgresCluster.shared, "postgresql-15 is needed").makeDatabase()
        defer { drop() }
        for (arguments, status) in [
            (["reset-feeds", "--all"], Int32(1)), (["admin", "delete-user", "nobody", "--yes"], 1),
            (["backup", "--to", files.file("pg.db")], 1),
        ] {
            let result = try Subprocess.run("snapshare-server", arguments + ["--database", conninfo])
            #expect(result.status == status && result.stderr.contains("not recorded in the audit log"), "\(arguments): \(result.stderr)")
        }
        let log = try Subprocess.run("snapshare-server", ["admin", "audit", "--database", conninfo])
        #expect(log.status == 1 && log.stderr.contains("audit_log"), "no tables were made: \(log.stdout)\(log.stderr)")
    }
}
