import Foundation
import TestSupport
import Testing

/// Refusals exit with the code the README's table gives them, whatever the server's reason.
@Suite("Refusals exit with the documented codes")
struct RefusalExitCodeTests {
    @Test("a command refused until a one-time password is replaced exits 4, as one that is not allowed, and says what to run")
    func oneTimePasswordRefusalIsNotAllowed() throws {
        let server = try TestServer()
        let directory = TemporaryDirectory("snapshare-one-time")
        let roster = try directory.write("username\nada\n", to: "roster.csv")
        let passwords = directory.file("passwords.csv")
        let imported = try Subprocess.run(
            "snapshare-server", ["admin", "import-roster", roster, "--passwords", passwords] + server.storeArguments)
        #expect(imported.status == 0, "\(imported.stderr)")
        let line = try #require(try String(contentsOfFile: passwords, encoding: .utf8).split(separator: "\n").last)
        let oneTime = try #require(line.split(separator: ",").last.map(String.init))
        let environment = ["SNAPSHARE_HOME": directory.file("home"), "SNAPSHARE_SERVER": server.address, "SNAPSHARE_CA": server.caPath]
        // Only the one-time password on standard input: logged in, the new one still to choose.
        let login = try Subprocess.run("snapshare", ["login", "ada", "--password-stdin"], environment: environment, stdin: oneTime + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        for command in [["feeds"], ["post", "--feed", "Memes", "--sample", "1"], ["pins"]] {
            let refused = try Subprocess.run("snapshare", command, environment: environment)
            #expect(refused.status == 4 && refused.stderr.contains("snapshare passwd"), "\(command): \(refused.status) \(refused.stderr)")
        }
    }
}
