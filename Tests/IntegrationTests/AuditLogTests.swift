import Client
import Foundation
import Testing
import TestSupport

/// The audit log against a real server: admin requests from the client (allowed or refused),
/// offline commands and restores, each recorded once with who; it survives backup and restore.
@Suite struct AuditLogTests {
    struct Row: Decodable, Equatable { let actor: String; let action: String; let target: String; let result: String }

    private func audit(_ arguments: [String]) throws -> [Row] {
        let result = try Subprocess.run("snapshare-server", ["admin", "audit", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode([Row].self, from: Data(result.stdout.utf8))
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
        let reset = try Subprocess.run("snapshare-server", ["admin", "reset-password", "alice", "--password-stdin"] + server.storeArguments,
                                       stdin: "a new password\n")
        #expect(reset.status == 0, "\(reset.stderr)")
        let user = String(cString: getpwuid(geteuid()).pointee.pw_name)
        // The client's requests are recorded by a write of their own, right after the reply.
        var rows: [Row] = []
        let deadline = Date().addingTimeInterval(10)
        repeat { rows = try audit(server.storeArguments) } while rows.count < 4 && Date() < deadline
        #expect(rows.filter { $0 == Row(actor: "teacher", action: "AdminDeleteSnap", target: "snap \(snap.id)", result: "ok") }.count == 1,
                "\(rows)")
        #expect(rows.filter { $0 == Row(actor: "mallory", action: "AdminDeleteSnap", target: "snap \(snap.id)", result: "FORBIDDEN") }.count == 1)
        #expect(rows.filter { $0 == Row(actor: "offline:\(user)", action: "admin reset-password", target: "user alice", result: "ok") }.count == 1)
        #expect(rows.filter { $0.action == "admin add" && $0.target == "user teacher" }.count == 1, "makeAdmin is the offline admin add")
        #expect(!rows.contains { $0.target.contains("a new password") }, "never a password")

        // The same log through the protocol, for admins only, and on the command line.
        let online = try teacher.auditLog(since: 0)
        #expect(online.filter { $0.action == "AdminDeleteSnap" && $0.actor == "teacher" && $0.result == "ok" }.count == 1, "\(online)")
        #expect(clientError { _ = try mallory.auditLog(since: 0) }?.serverCode == .forbidden)
        let cli = CommandLineTests.Student(server: server)
        #expect(try cli.run("login", "teacher", "--password-stdin", stdin: "correct horse battery\n").status == 0)
        let printed = try cli.run("admin", "audit", "--since", "1h")
        #expect(printed.status == 0 && printed.stdout.contains("AdminDeleteSnap") && printed.stdout.contains("snap \(snap.id)"), "\(printed.stdout)")
        let json = try cli.run("admin", "audit", "--json")
        #expect(json.stdout.contains("\"action\":\"admin reset-password\""), "\(json.stdout)")

        let directory = TemporaryDirectory("snapshare-audit-restore")
        #expect(try Subprocess.run("snapshare-server", ["backup", "--to", directory.file("b")] + server.storeArguments).status == 0)
        #expect(try Subprocess.run("snapshare-server", ["restore", "--from", directory.file("b"), "--data", directory.file("data")]).status == 0)
        let restored = try audit(["--data", directory.file("data")])
        #expect(Array(restored.prefix(rows.count)) == rows, "the log survives backup and restore")
        #expect(restored.filter { $0.action == "restore" && $0.actor == "offline:\(user)" && $0.target == "from \(directory.file("b"))" }.count == 1)
        let table = try Subprocess.run("snapshare-server", ["admin", "audit", "--since", "1h", "--data", directory.file("data")])
        #expect(table.stdout.hasPrefix("TIME") && table.stdout.contains("AdminDeleteSnap"), "\(table.stdout)")
    }
}
