import Client
import Foundation
import TestSupport
import Testing
import Wire

/// A class behind one address (a school's NAT: here every connection comes from 127.0.0.1)
/// against a real server: a class's worth of typos locks nobody out, a student's own device is
/// judged by its own budget, and every refusal names a remedy that really lifts it.
@Suite("A classroom behind one address")
struct ClassroomLoginTests {
    static func password(_ index: Int) -> String { "student \(index) password" }

    /// The error a login from a machine this student never logged in from (no device token) gets.
    static func labLogin(_ server: TestServer, _ name: String, _ password: String) throws -> ClientError? {
        let (lab, _) = try server.session()
        return clientError { _ = try lab.login(username: name, password: password) }
    }

    @Test(
        """
        30 students, 10 of whom mistype 5 times from the lab: the rest get in, \
        their own devices get in, and the named remedy lets the lab in
        """
    )
    func aClassMistypingLocksNobodyOut() throws {
        let server = try TestServer()
        // Each registers on their own laptop, which keeps a device token.
        var laptops: [TemporaryDirectory] = []
        for index in 0..<30 {
            let (session, home) = try server.session()
            _ = try session.register(
                username: "student\(index)", password: Self.password(index), classCode: server.configuration.classCode ?? "")
            laptops.append(home)
        }
        // Ten mistype five times each on the lab's machines.
        for index in 0..<10 {
            for _ in 0..<5 { #expect(try Self.labLogin(server, "student\(index)", "a typo")?.serverCode == .badCredentials) }
        }
        // The other twenty get in from the lab: fifty failures do not lock the class's address.
        for index in 10..<30 { #expect(try Self.labLogin(server, "student\(index)", Self.password(index)) == nil, "student\(index)") }
        // The ten are held back on the lab's machines, and the message says what lifts it.
        let held = try #require(try Self.labLogin(server, "student1", Self.password(1)))
        #expect(held.serverCode == .rateLimited)
        #expect(
            held.message.contains("log in from a device you logged in with before")
                && held.message.contains("snapshare admin unlock student1"),
            "\(held.message)")
        // Their own laptops are judged by their own budgets: they get in at once.
        for index in 0..<10 {
            let (laptop, _) = try server.session(home: laptops[index])
            #expect(
                clientError { _ = try laptop.login(username: "student\(index)", password: Self.password(index)) } == nil,
                "s\(index)'s laptop")
        }
        // And the named remedy lifts the lab's hold.
        let admin = try server.makeAdmin("teacher")
        #expect(try admin.unlock("student1") > 0)
        #expect(try Self.labLogin(server, "student1", Self.password(1)) == nil)
    }

    @Test("a device token is judged by its own budget: another user's token, or a made-up one, counts for nothing")
    func deviceTokensBelongToTheirUser() throws {
        let server = try TestServer()
        _ = try server.registeredSession("ann", password: "ann's password")
        _ = try server.registeredSession("bob", password: "bob's password")
        let (bobsLaptop, bobsHome) = try server.session()
        _ = try bobsLaptop.login(username: "bob", password: "bob's password")
        let state = ClientState(directory: bobsHome.path)
        let bobsToken = try #require(try state.deviceToken(for: server.settings().serverKey, username: "bob"))
        // Mallory presents bob's device token for ann: an ordinary login, held by ann's budget.
        let connection = try server.connection()
        for _ in 0..<5 {
            let reply = try connection.roundTrip(LoginWithDevice(username: "ann", password: "guess", deviceToken: bobsToken))
            #expect(try reply.decode(ErrorMessage.self).code == .badCredentials)
        }
        let refused = try connection.roundTrip(LoginWithDevice(username: "ann", password: "ann's password", deviceToken: "made up"))
        #expect(try refused.decode(ErrorMessage.self).code == .rateLimited)
        // Bob's own device, for bob, is not held by what happened to ann.
        let own = try server.connection().roundTrip(LoginWithDevice(username: "bob", password: "bob's password", deviceToken: bobsToken))
        #expect(own.type == MessageType.authenticated.rawValue)
    }

    @Test("an address out of tries says so, names snapshare admin unlock --address, and that lifts it")
    func anAddressIsUnlockedByItsOwnRemedy() throws {
        let server = try TestServer { $0.loginThrottle.perAddress = 12 }
        _ = try server.registeredSession("carol", password: "carol's password")
        _ = try server.makeAdmin("teacher")
        // The instructor is logged in on the command line before the address runs out.
        let home = TemporaryDirectory("snapshare-cli-home")
        let environment = ["SNAPSHARE_HOME": home.path, "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath]
        #expect(
            try Subprocess.run(
                "snapshare", ["login", "teacher", "--password-stdin"], environment: environment,
                stdin: "correct horse battery\n"
            ).status == 0)
        for index in 0..<12 { _ = try Self.labLogin(server, "nobody\(index)", "guess") }
        let refused = try #require(try Self.labLogin(server, "carol", "carol's password"))
        #expect(refused.serverCode == .rateLimited)
        #expect(
            refused.message.contains("from your address (127.0.0.1)")
                && refused.message.contains("snapshare admin unlock --address 127.0.0.1"),
            "\(refused.message)")
        let unlocked = try Subprocess.run("snapshare", ["admin", "unlock", "--address", "127.0.0.1", "--json"], environment: environment)
        #expect(unlocked.status == 0 && unlocked.stdout.contains("\"address\":\"127.0.0.1\""), "\(unlocked.stderr)")
        #expect(try Self.labLogin(server, "carol", "carol's password") == nil)
        let bad = try Subprocess.run("snapshare", ["admin", "unlock", "--address", "not-an-ip"], environment: environment)
        #expect(bad.status == 8 && bad.stderr.contains("not an IP address"), "\(bad.stderr)")
        #expect(try Subprocess.run("snapshare", ["admin", "unlock"], environment: environment).status == 2)
    }
}
