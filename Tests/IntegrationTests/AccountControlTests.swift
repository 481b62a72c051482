import Client
import Foundation
import Server
import TestSupport
import Testing
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// Disable and enable, rename, delete-user, the roster with one-time passwords, and who may
/// register, against a real server (on PostgreSQL too, with SNAPSHARE_TEST_DATABASE=postgresql).
@Suite("Accounts: disable, rename, delete, roster, registration")
struct AccountControlTests {
    @Test("a disabled student's sessions end, their logins are refused and the name stays taken; enabled, they log in again")
    func disableAndEnable() throws {
        let server = try TestServer()
        let omar = try server.registeredSession("omar")
        let admin = try server.makeAdmin("teacher")
        try admin.setDisabled("omar", true)
        #expect(endsWithinSeconds(omar))
        let (again, againHome) = try server.session()
        let refused = clientError { _ = try again.login(username: "omar", password: "correct horse battery") }
        #expect(refused?.serverCode == .forbidden && refused?.message.contains("disabled") == true, "\(String(describing: refused))")
        let wrong = clientError { _ = try again.login(username: "omar", password: "wrong password") }
        #expect(wrong?.serverCode == .badCredentials, "a wrong password says nothing about the account")
        #expect(clientError { _ = try server.registeredSession("OMAR") }?.serverCode == .usernameTaken)
        #expect(clientError { try admin.setDisabled("teacher", true) }?.serverCode == .invalidArgument)
        try admin.setDisabled("omar", false)
        _ = try again.login(username: "omar", password: "correct horse battery")
        _ = try again.post(feed: "Memes", image: TestImages.sample(1))
        let audit = try server.openStore().auditEntries(since: 0, limit: 50).filter { $0.action == "AdminSetDisabled" }.map(\.target)
        #expect(audit.contains("user omar disabled") && audit.contains("user omar enabled"), "\(audit)")
        withExtendedLifetime(againHome) {}
    }

    @Test("a rename carries the student's sessions on under the new name, shows in listings, and follows the rules for names")
    func rename() throws {
        let server = try TestServer()
        let rude = try server.registeredSession("rude_name")
        let viewer = try server.registeredSession("lena")
        let snap = try rude.post(feed: "Memes", image: TestImages.sample(2))
        let admin = try server.makeAdmin("teacher")
        try admin.rename("rude_name", to: "student7")
        #expect(try rude.whoAmI().username == "student7", "the session carries on under the new name")
        #expect(try viewer.snaps(feed: nil).snaps.first { $0.id == snap.id }?.poster == "student7")
        #expect(clientError { try admin.rename("student7", to: "lena") }?.serverCode == .usernameTaken)
        #expect(clientError { try admin.rename("student7", to: "x") }?.serverCode == .invalidArgument)
        #expect(clientError { try admin.rename("nobody", to: "someone") }?.serverCode == .notFound)
        let (fresh, home) = try server.session()
        _ = try fresh.login(username: "student7", password: "correct horse battery")
        #expect(clientError { _ = try server.registeredSession("rude_name") } == nil, "the old name is free")
        withExtendedLifetime(home) {}
    }

    @Test("delete-user takes the account with its snaps, views, pins and sessions; the offline twin asks first")
    func deleteUser() throws {
        let server = try TestServer()
        let omar = try server.registeredSession("omar")
        let lena = try server.registeredSession("lena")
        let his = try omar.post(feed: "Memes", image: TestImages.sample(3))
        let hers = try lena.post(feed: "Memes", image: TestImages.sample(4))
        _ = try omar.open(snapID: hers.id)
        _ = try omar.addPin(latitude: 10, longitude: 20)
        let admin = try server.makeAdmin("teacher")
        try admin.deleteUser("omar")
        #expect(endsWithinSeconds(omar))
        #expect(try lena.snaps(feed: nil).snaps.map(\.id) == [hers.id], "his snap left every listing: \(his.id)")
        #expect(try admin.snapViews(hers.id).viewers.isEmpty, "his view went")
        #expect(try server.count("SELECT count(*) FROM pins") == 0)
        #expect(clientError { try admin.deleteUser("teacher") }?.serverCode == .invalidArgument)
        #expect(clientError { try admin.deleteUser("omar") }?.serverCode == .notFound)

        let unasked = try Subprocess.run("snapshare-server", ["admin", "delete-user", "lena"] + server.storeArguments)
        #expect(unasked.status == 2 && unasked.stderr.contains("--yes"), "\(unasked.stderr)")
        let offline = try Subprocess.run("snapshare-server", ["admin", "delete-user", "lena", "--yes"] + server.storeArguments)
        #expect(offline.status == 0 && offline.stdout.contains("Deleted lena with 1 snaps"), "\(offline.stdout)\(offline.stderr)")
        #expect(endsWithinSeconds(lena))
        let audit = try server.openStore().auditEntries(since: 0, limit: 50)
        #expect(audit.contains { $0.action == "AdminDeleteUser" && $0.target == "user omar" && $0.result == "ok" })
        #expect(audit.contains { $0.action == "admin delete-user" && $0.actor.hasPrefix("offline:") })
    }

    @Test("a roster import creates accounts with one-time passwords (0600), reports bad rows, and the first login must change the password")
    func rosterImport() throws {
        let server = try TestServer()
        _ = try server.registeredSession("existing")
        let directory = TemporaryDirectory("snapshare-roster")
        let roster = try directory.write(
            """
            username,display_name,role
            ada,Ada Lovelace,student
            bad name,Someone,student
            grace,"Hopper, Grace",admin
            existing,Already Here,
            ada,Twice,student
            tim,Tim,teacher
            """, to: "roster.csv")
        let passwords = directory.file("passwords.csv")
        let imported = try Subprocess.run(
            "snapshare-server", ["admin", "import-roster", roster, "--passwords", passwords] + server.storeArguments)
        #expect(imported.status == 1, "some rows were refused")
        #expect(
            imported.stdout.contains("2 accounts created") && imported.stdout.contains("1 already had one")
                && imported.stdout.contains("3 rows refused"),
            "\(imported.stdout)")
        #expect(
            imported.stderr.contains("line 3:") && imported.stderr.contains("line 6: ada is on the roster twice")
                && imported.stderr.contains("line 7: tim: role 'teacher'"), "\(imported.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: passwords)[.posixPermissions] as? Int == 0o600)
        let lines = try String(contentsOfFile: passwords, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.first == "username,display_name,one_time_password" && lines.count == 3, "\(lines)")
        let ada = try #require(lines.first { $0.hasPrefix("ada,") }).split(separator: ",").last.map(String.init) ?? ""
        #expect(ada.wholeMatch(of: /[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}/) != nil, "\(ada)")
        #expect(lines.contains { $0.hasPrefix("grace,\"Hopper, Grace\",") })
        let again = try Subprocess.run(
            "snapshare-server", ["admin", "import-roster", roster, "--passwords", passwords] + server.storeArguments)
        #expect(again.status == 1 && again.stderr.contains("exists already"), "the passwords are never written over: \(again.stderr)")

        // A one-time password logs in, but nothing else is answered until it is changed.
        let (session, home) = try server.session()
        _ = try session.login(username: "ada", password: ada)
        let held = clientError { _ = try session.feeds() }
        #expect(
            held?.serverCode == .passwordChangeRequired && held?.message.contains("snapshare passwd") == true, "\(String(describing: held))"
        )
        try session.changePassword(from: ada, to: "ada's own password")
        _ = try session.feeds()
        #expect(try server.openStore().user(named: "grace")?.isAdmin == true)

        // The command line asks for the new one at login (here, the second line of standard input).
        let graceHome = TemporaryDirectory("snapshare-grace")
        let grace = try #require(lines.first { $0.hasPrefix("grace,") }).split(separator: ",").last.map(String.init) ?? ""
        let environment = ["SNAPSHARE_HOME": graceHome.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath]
        let login = try Subprocess.run(
            "snapshare", ["login", "grace", "--password-stdin"], environment: environment, stdin: "\(grace)\ngrace's own password\n")
        #expect(login.status == 0 && login.stderr.contains("Password changed"), "\(login.stdout)\(login.stderr)")
        let feeds = try Subprocess.run("snapshare", ["feeds"], environment: environment)
        #expect(feeds.status == 0, "\(feeds.stderr)")
        withExtendedLifetime(home) {}
    }

    @Test(
        """
        --registration roster lets only the roster's names register; \
        closed lets nobody; a disabled student cannot come back under a new name
        """
    )
    func registrationModes() throws {
        let server = try TestServer { $0.registration = .roster }
        let directory = TemporaryDirectory("snapshare-roster-mode")
        let roster = try directory.write("username\nada\nomar\n", to: "roster.csv")
        let imported = try Subprocess.run(
            "snapshare-server", ["admin", "import-roster", roster, "--passwords", directory.file("pw.csv")] + server.storeArguments)
        #expect(imported.status == 0, "\(imported.stderr)")
        let admin = try server.makeAdmin("teacher")
        try admin.setDisabled("omar", true)
        let newName = clientError { _ = try server.registeredSession("omar_real") }
        #expect(
            newName?.serverCode == .forbidden && newName?.message.contains("not on this class's roster") == true,
            "\(String(describing: newName))")
        // A deleted account's roster name goes with it: it no longer registers.
        try admin.deleteUser("ada")
        #expect(clientError { _ = try server.registeredSession("ada") }?.serverCode == .forbidden)
        // A roster name nobody has claimed registers, once.
        try server.openStore().putRosterEntry(RosterEntry(name: "pat", displayName: "Pat", isAdmin: false, addedAt: 0))
        _ = try server.registeredSession("pat")
        #expect(clientError { _ = try server.registeredSession("PAT") }?.serverCode == .usernameTaken)

        var closed = server.configuration
        closed.registration = .closed
        server.server.reload(closed, changedOptions: ["--registration"])
        let refused = clientError { _ = try server.registeredSession("anyone") }
        #expect(
            refused?.serverCode == .forbidden && refused?.message.contains("registration is closed") == true,
            "\(String(describing: refused))")
    }
}
