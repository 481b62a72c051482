import Client
import Foundation
import Server
import TestSupport
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// An account's life as a semester lives it, through the real binaries against a real server
/// (on PostgreSQL too, with SNAPSHARE_TEST_DATABASE=postgresql): a one-time password that can
/// only be replaced, a roster entry that belongs to the account that claimed it through renames,
/// deletions and terms, and the words a student's open connection is told when the account goes.
@Suite("An account's life: one-time passwords, the roster through renames, deletions and terms")
struct AccountLifecycleTests {
    /// Imports `csv` as the roster offline and returns each new account's one-time password.
    static func importRoster(_ server: TestServer, _ csv: String, extra: [String] = []) throws -> [String: String] {
        let directory = TemporaryDirectory("snapshare-roster")
        let roster = try directory.write(csv, to: "roster.csv")
        let passwords = directory.file("passwords.csv")
        let imported = try Subprocess.run(
            "snapshare-server", ["admin", "import-roster", roster, "--passwords", passwords] + extra + server.storeArguments)
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        guard FileManager.default.fileExists(atPath: passwords) else { return [:] }
        var found: [String: String] = [:]
        for line in try String(contentsOfFile: passwords, encoding: .utf8).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",")
            if let name = fields.first, let password = fields.last { found[String(name)] = String(password) }
        }
        return found
    }

    /// `snapshare register NAME` from another machine, with the class code: what an impostor who
    /// knows a classmate's name would try.
    static func registerElsewhere(_ name: String, on server: TestServer) throws -> Subprocess.Result {
        try CommandLineTests.Student(server: server).run(
            "register", name, "--password-stdin", "--class-code", server.configuration.classCode ?? "",
            stdin: "impostor password\n")
    }

    /// The instructor, logged in on the command line.
    static func instructor(_ server: TestServer) throws -> CommandLineTests.Student {
        _ = try server.makeAdmin("teacher")
        let teacher = CommandLineTests.Student(server: server)
        let login = try teacher.run("login", "teacher", "--password-stdin", stdin: "correct horse battery\n")
        #expect(login.status == 0, "\(login.stderr)")
        return teacher
    }

    // MARK: 1. One-time passwords

    @Test("a one-time password cannot be kept: login --password-stdin and passwd refuse it as the new one, and the current one too")
    func aOneTimePasswordCannotBeKept() throws {
        let server = try TestServer()
        let oneTime = try #require(try Self.importRoster(server, "username,display_name\ncarol,Carol Chen\n")["carol"])
        let carol = CommandLineTests.Student(server: server)

        let same = try carol.run("login", "carol", "--password-stdin", stdin: "\(oneTime)\n\(oneTime)\n")
        #expect(same.status == 8, "refused, the documented exit for a refusal: \(same.stdout)\(same.stderr)")
        #expect(same.stderr.contains("must differ from the one-time password"), "\(same.stderr)")
        #expect(!same.stderr.contains("Password changed"), "\(same.stderr)")
        // Still a one-time password: nothing but a change is answered.
        let held = try carol.run("feeds")
        #expect(held.status != 0 && held.stderr.contains("one-time password"), "\(held.stdout)\(held.stderr)")
        // passwd refuses it as well, then takes a password of the student's own.
        let passwdSame = try carol.run("passwd", "--password-stdin", stdin: "\(oneTime)\n\(oneTime)\n")
        #expect(passwdSame.status == 8 && passwdSame.stderr.contains("must differ from the one-time password"), "\(passwdSame.stderr)")
        let own = try carol.run("passwd", "--password-stdin", stdin: "\(oneTime)\ncarol's own password\n")
        #expect(own.status == 0, "\(own.stderr)")
        #expect(try carol.run("feeds").status == 0)
        // Changing to the current one is no change; going back to the one-time one is refused too,
        // since the instructor's file still holds it.
        let unchanged = try carol.run("passwd", "--password-stdin", stdin: "carol's own password\ncarol's own password\n")
        #expect(unchanged.status == 8 && unchanged.stderr.contains("same as your current password"), "\(unchanged.stderr)")
        let back = try carol.run("passwd", "--password-stdin", stdin: "carol's own password\n\(oneTime)\n")
        #expect(back.status == 8 && back.stderr.contains("one-time password"), "\(back.stderr)")
        // The one-time password no longer logs in; the student's own does.
        let other = CommandLineTests.Student(server: server)
        #expect(try other.run("login", "carol", "--password-stdin", stdin: "\(oneTime)\n").status == 4)
        #expect(try other.run("login", "carol", "--password-stdin", stdin: "carol's own password\n").status == 0)
    }

    @Test("the interactive login asks again when the new password is the one-time one")
    func theInteractiveLoginAsksAgain() throws {
        guard TmuxPane.isAvailable else { return }
        let server = try TestServer()
        let oneTime = try #require(try Self.importRoster(server, "username\ncarol\n")["carol"])
        let carol = CommandLineTests.Student(server: server)
        let pane = try TmuxPane(
            Subprocess.executable("snapshare") + " login carol; echo \"exit=$?\"", columns: 100, rows: 30,
            environment: carol.environment)
        try pane.wait { $0.contains("Password:") }
        try pane.send(oneTime, literal: true)
        try pane.send("Enter")
        try pane.wait { $0.contains("New password:") }
        try pane.send(oneTime, literal: true)
        try pane.send("Enter")
        try pane.wait { $0.contains("Repeat password:") }
        try pane.send(oneTime, literal: true)
        try pane.send("Enter")
        let refused = try pane.wait {
            $0.contains("must differ from the one-time password") && $0.components(separatedBy: "New password:").count == 3
        }
        #expect(!refused.contains("Password changed"), "\(refused)")
        try pane.send("carol's own password", literal: true)
        try pane.send("Enter")
        try pane.wait { $0.components(separatedBy: "Repeat password:").count == 3 }
        try pane.send("carol's own password", literal: true)
        try pane.send("Enter")
        let done = try pane.wait { $0.contains("exit=") }
        #expect(done.contains("Password changed") && done.contains("exit=0"), "\(done)")
    }

    @Test("a password stored at another cost is stored again at today's by the next login, and a one-time password stays one-time")
    func aLoginRehashesAPasswordOfAnotherCost() throws {
        let server = try TestServer()
        let store = try server.openStore()
        let stronger = PasswordHasher(cost: .init(n: 32_768, r: 8, p: 1), minimum: .production)
        _ = try store.createUser(name: "old", passwordHash: try stronger.hash(password: "old's password"), isAdmin: false, at: 1)
        let roster = try store.createUser(name: "new", passwordHash: try stronger.hash(password: "one-time pass"), isAdmin: false, at: 1)
        try store.setMustChangePassword(userID: roster.id, true)
        for name in ["old", "new"] {
            try store.setMember(
                userID: try #require(try store.user(named: name)).id, classID: try store.firstClassID(), role: .student, at: 1)
        }
        let today = "scrypt$\(PasswordHasher.Cost.production.n)$\(PasswordHasher.Cost.production.r)$\(PasswordHasher.Cost.production.p)$"

        let (old, oldHome) = try server.session()
        _ = try old.login(username: "old", password: "old's password")
        #expect(try store.user(named: "old")?.passwordHash.hasPrefix(today) == true)
        let (again, againHome) = try server.session()
        _ = try again.login(username: "old", password: "old's password")
        _ = try old.feeds()

        let (new, newHome) = try server.session()
        _ = try new.login(username: "new", password: "one-time pass")
        let rehashed = try #require(try store.user(named: "new"))
        #expect(rehashed.passwordHash.hasPrefix(today) && rehashed.mustChangePassword)
        #expect(clientError { _ = try new.feeds() }?.serverCode == .passwordChangeRequired)
        withExtendedLifetime((oldHome, againHome, newHome)) {}
    }

    // MARK: 2. Renames

    @Test("a renamed student's roster name cannot be registered by anyone, and a student can get their own name back")
    func aRosterEntryFollowsItsAccountThroughRenames() throws {
        let server = try TestServer { $0.registration = .roster }
        _ = try Self.importRoster(server, "username\ndave\nalice\nfrank\n")
        let teacher = try Self.instructor(server)
        #expect(try teacher.run("admin", "rename", "dave", "david").status == 0)

        // An impostor with the class code, on another machine.
        let taken = try Self.registerElsewhere("dave", on: server)
        #expect(taken.status == 8 && taken.stderr.contains("taken"), "\(taken.stdout)\(taken.stderr)")
        #expect(clientError { _ = try server.registeredSession("DAVE") }?.serverCode == .usernameTaken)

        // A name there and back: the entry follows its account.
        for name in ["mallory", "alice2", "alice"] {
            let renamed = try teacher.run("admin", "rename", name == "mallory" ? "alice" : name == "alice2" ? "mallory" : "alice2", name)
            #expect(renamed.status == 0, "\(name): \(renamed.stderr)")
        }
        // Someone else's roster name is refused, claimed or not, and says whose.
        let claimed = try teacher.run("admin", "rename", "alice", "dave")
        #expect(claimed.status == 8 && claimed.stderr.contains("dave is on the roster for david"), "\(claimed.stderr)")
        let store = try server.openStore()
        let frank = try #require(try store.user(named: "frank"))
        _ = try store.deleteUser(userID: frank.id)
        try store.putRosterEntry(RosterEntry(name: "frank", displayName: "Frank", isAdmin: false, addedAt: 0))
        let unclaimed = try teacher.run("admin", "rename", "alice", "frank")
        #expect(
            unclaimed.status == 8 && unclaimed.stderr.contains("frank is on the roster") && unclaimed.stderr.contains("not registered yet"),
            "\(unclaimed.stderr)")
        // Frank registers as himself; alice still holds her entry.
        _ = try server.registeredSession("frank")
        let roster = try teacher.run("admin", "roster", "--json")
        #expect(roster.status == 0, "\(roster.stderr)")
        let entries = try JSONDecoder.snakeCase.decode([RosterRow].self, from: Data(roster.stdout.utf8))
        #expect(entries.first { $0.name == "dave" }?.account == "david")
        #expect(entries.first { $0.name == "alice" }?.account == "alice")
        #expect(entries.first { $0.name == "frank" }?.account == "frank")
    }

    // MARK: 3. Deletions and terms

    struct RosterRow: Decodable, Equatable {
        let name: String
        let displayName: String
        let role: String
        let account: String?
        let status: String
    }

    @Test("delete-user, online and offline, takes the account's roster entry with it: nobody registers the name")
    func deleteUserRemovesTheRosterEntry() throws {
        let server = try TestServer { $0.registration = .roster }
        _ = try Self.importRoster(server, "username\nerin\nfinn\ngus\n")
        let teacher = try Self.instructor(server)
        #expect(try teacher.run("admin", "delete-user", "erin", "--yes").status == 0)
        let offline = try Subprocess.run("snapshare-server", ["admin", "delete-user", "finn", "--yes"] + server.storeArguments)
        #expect(offline.status == 0 && offline.stdout.contains("roster"), "\(offline.stdout)\(offline.stderr)")
        for name in ["erin", "finn"] {
            let refused = try Self.registerElsewhere(name, on: server)
            #expect(refused.status == 4 && refused.stderr.contains("not on this class's roster"), "\(name): \(refused.stderr)")
        }
        let listed = try Subprocess.run("snapshare-server", ["admin", "roster", "--json"] + server.storeArguments)
        let rows = try JSONDecoder.snakeCase.decode([RosterRow].self, from: Data(listed.stdout.utf8))
        #expect(rows.map(\.name) == ["gus"], "\(listed.stdout)\(listed.stderr)")
    }

    @Test("end-term clears the roster unless --keep-roster, and says so; last term's names no longer register")
    func endTermClearsTheRoster() throws {
        let server = try TestServer { $0.registration = .roster }
        _ = try Self.importRoster(server, "username\nhana\nivan\n")
        _ = try server.makeAdmin("teacher")
        let directory = TemporaryDirectory("snapshare-term-roster")

        let kept = try Subprocess.run(
            "snapshare-server",
            ["end-term", "--archive", directory.file("a.backup"), "--keep-accounts", "--keep-roster", "--yes"]
                + server.storeArguments)
        #expect(kept.status == 0 && kept.stdout.contains("roster kept"), "\(kept.stdout)\(kept.stderr)")
        #expect(try server.count("SELECT count(*) FROM roster") == 2)

        let ended = try Subprocess.run(
            "snapshare-server", ["end-term", "--archive", directory.file("b.backup"), "--yes"] + server.storeArguments)
        #expect(ended.status == 0 && ended.stdout.contains("the roster (2 names)"), "\(ended.stdout)\(ended.stderr)")
        #expect(try server.count("SELECT count(*) FROM roster") == 0)
        let refused = try Self.registerElsewhere("hana", on: server)
        #expect(refused.status == 4 && refused.stderr.contains("not on this class's roster"), "\(refused.stderr)")

        // A new term's roster works as the first did.
        let next = try Self.importRoster(server, "username\njune\n")
        #expect(next["june"] != nil)
        let listed = try Subprocess.run("snapshare-server", ["admin", "roster"] + server.storeArguments)
        #expect(listed.status == 0 && listed.stdout.contains("june") && !listed.stdout.contains("hana"), "\(listed.stdout)")
    }

    @Test("admin roster lists who claimed what and who has not signed in yet, on the command line and offline; remove takes an entry off")
    func theRosterCanBeSeenAndEdited() throws {
        let server = try TestServer { $0.registration = .roster }
        let passwords = try Self.importRoster(
            server, "username,display_name,role\nkim,Kim Lee,student\nleo,Leo Park,student\nmia,Mia Ross,admin\n")
        let store = try server.openStore()
        try store.putRosterEntry(RosterEntry(name: "noor", displayName: "Noor Haddad", isAdmin: false, addedAt: 0))
        let teacher = try Self.instructor(server)
        // Kim signs in and chooses her password; Leo never signs in; Noor has not registered.
        let kim = CommandLineTests.Student(server: server)
        #expect(try kim.run("login", "kim", "--password-stdin", stdin: "\(passwords["kim"] ?? "")\nkim's own password\n").status == 0)

        let offline = try Subprocess.run("snapshare-server", ["admin", "roster", "--json"] + server.storeArguments)
        #expect(offline.status == 0, "\(offline.stderr)")
        let rows = try JSONDecoder.snakeCase.decode([RosterRow].self, from: Data(offline.stdout.utf8))
        #expect(rows.map(\.name) == ["kim", "leo", "mia", "noor"], "\(offline.stdout)")
        #expect(
            rows.first { $0.name == "kim" }.map { ($0.account, $0.status, $0.displayName) } ?? (nil, "", "") == (
                "kim", "signed in", "Kim Lee"
            ))
        #expect(rows.first { $0.name == "leo" }?.status == "one-time password not yet replaced")
        #expect(rows.first { $0.name == "mia" }?.role == "admin")
        #expect(rows.first { $0.name == "noor" }.map { ($0.account, $0.status) } ?? ("?", "") == (nil, "not registered"))
        let online = try teacher.run("admin", "roster", "--json")
        #expect(
            try JSONDecoder.snakeCase.decode([RosterRow].self, from: Data(online.stdout.utf8)) == rows, "\(online.stdout)\(online.stderr)")
        let text = try teacher.run("admin", "roster")
        #expect(text.status == 0 && text.stdout.contains("Noor Haddad") && text.stdout.contains("not registered"), "\(text.stdout)")

        let removed = try teacher.run("admin", "roster", "remove", "noor")
        #expect(removed.status == 0 && removed.stdout.contains("noor"), "\(removed.stdout)\(removed.stderr)")
        let removedOffline = try Subprocess.run("snapshare-server", ["admin", "roster", "remove", "leo"] + server.storeArguments)
        #expect(
            removedOffline.status == 0 && removedOffline.stdout.contains("leo keeps their account"),
            "\(removedOffline.stdout)\(removedOffline.stderr)")
        let missing = try teacher.run("admin", "roster", "remove", "nobody")
        #expect(missing.status == 5 && missing.stderr.contains("nobody is not on the roster"), "\(missing.stderr)")
        let after = try JSONDecoder.snakeCase.decode([RosterRow].self, from: Data(try teacher.run("admin", "roster", "--json").stdout.utf8))
        #expect(after.map(\.name) == ["kim", "mia"])
        #expect(try Self.registerElsewhere("noor", on: server).status == 4, "a removed entry no longer registers")
    }

    // MARK: 4. What admin users shows

    struct UserRow: Decodable {
        let username: String
        let displayName: String?
        let admin: Bool
        let disabled: Bool
        let suspendedUntil: String?
        let oneTimePassword: Bool
        let rosterName: String?
    }

    @Test("admin users shows display names, disabled, suspended and one-time-password accounts, in text and --json")
    func adminUsersShowsEachAccountsState() throws {
        let server = try TestServer()
        _ = try Self.importRoster(server, "username,display_name\nola,Ola Nowak\npia,Pia Berg\n")
        _ = try server.registeredSession("quinn")
        _ = try server.registeredSession("rosa")
        let teacher = try Self.instructor(server)
        #expect(try teacher.run("admin", "disable", "quinn").status == 0)
        #expect(try teacher.run("admin", "suspend", "rosa", "--for", "2d", "--reason", "spam").status == 0)
        #expect(try teacher.run("admin", "rename", "pia", "pia_b").status == 0)

        let json = try teacher.run("admin", "users", "--json")
        #expect(json.status == 0, "\(json.stderr)")
        let users = try JSONDecoder.snakeCase.decode([UserRow].self, from: Data(json.stdout.utf8))
        let ola = try #require(users.first { $0.username == "ola" })
        #expect(ola.displayName == "Ola Nowak" && ola.oneTimePassword && !ola.disabled && ola.rosterName == "ola")
        #expect(users.first { $0.username == "pia_b" }.map { ($0.displayName, $0.rosterName) } ?? (nil, nil) == ("Pia Berg", "pia"))
        #expect(users.first { $0.username == "quinn" }?.disabled == true)
        #expect(users.first { $0.username == "rosa" }?.suspendedUntil != nil)
        #expect(
            users.first { $0.username == "teacher" }.map { ($0.admin, $0.oneTimePassword, $0.suspendedUntil) } ?? (false, true, "")
                == (true, false, nil))

        let text = try teacher.run("admin", "users")
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.first { $0.hasPrefix("ola ") }.map { $0.contains("Ola Nowak") && $0.contains("one-time password") } == true,
            "\(text.stdout)")
        #expect(lines.first { $0.hasPrefix("quinn ") }?.contains("disabled") == true, "\(text.stdout)")
        #expect(lines.first { $0.hasPrefix("rosa ") }?.contains("suspended") == true, "\(text.stdout)")
    }

    // MARK: 5. The words an open connection is told

    @Test("a deleted or disabled student's open connection is told so, not that a password changed")
    func aClosedAccountsConnectionIsToldWhy() throws {
        let server = try TestServer()
        let una = try server.registeredSession("una")
        let vic = try server.registeredSession("vic")
        let admin = try server.makeAdmin("teacher")
        let unaConnection = try server.connection()
        _ = try unaConnection.roundTrip(Login(username: "una", password: "correct horse battery"))
        let vicConnection = try server.connection()
        _ = try vicConnection.roundTrip(Login(username: "vic", password: "correct horse battery"))

        try admin.deleteUser("una")
        let deleted = try unaConnection.receive().decode(ErrorMessage.self)
        #expect(deleted.code == .accountClosed && deleted.fatal && deleted.message.contains("deleted"), "\(deleted)")
        try admin.setDisabled("vic", true)
        let disabled = try vicConnection.receive().decode(ErrorMessage.self)
        #expect(disabled.code == .accountClosed && disabled.message.contains("disabled"), "\(disabled)")
        #expect(!deleted.message.contains("password") && !disabled.message.contains("password"))

        // An older client is told the same words under the code it knows.
        let old = try server.registeredSession("wes")
        let oldConnection = try server.connection(versions: 3...3)
        _ = try oldConnection.roundTrip(Login(username: "wes", password: "correct horse battery"))
        try admin.deleteUser("wes")
        let told = try oldConnection.receive().decode(ErrorMessage.self)
        #expect(told.code == .sessionInvalid && told.message.contains("deleted"), "\(told) \(oldConnection.protocolVersion)")
        withExtendedLifetime((una, vic, old)) {}
    }
}
