import Foundation
import TestSupport
import Testing

/// Each subcommand's `--help` shows its own options and only the global ones it uses; a global
/// option a subcommand does not use is refused, naming what it does take. Both programs, run.
@Suite("A subcommand's help shows what it takes")
struct SubcommandHelpTests {
    /// Every command path below `program`, read from the "Commands:" sections of the help texts.
    static func commands(_ program: String, below path: [String] = []) throws -> [[String]] {
        let help = try Subprocess.run(program, path + ["--help"]).stdout
        guard let section = help.range(of: "\nCommands:\n").map({ help[$0.upperBound...] }) else { return [] }
        let names = section.split(separator: "\n").prefix { $0.hasPrefix("  ") }.compactMap {
            $0.split(separator: " ").first.map(String.init)
        }
        return try names.flatMap { [path + [$0]] + (try commands(program, below: path + [$0])) }
    }

    static func options(_ help: String) -> Set<String> {
        Set(DocumentationAgreementTests.helpOptions(help).map(\.name))
    }

    @Test("every snapshare-server subcommand's help lists its own options and the store's, not the server's forty")
    func serverSubcommands() throws {
        let everything = Self.options(try Subprocess.run("snapshare-server", ["--help"]).stdout)
        #expect(everything.contains("--listen") && everything.contains("--max-connections") && everything.count > 30)
        let paths = try Self.commands("snapshare-server")
        #expect(paths.contains(["admin", "add"]) && paths.contains(["backup"]) && paths.count > 12, "\(paths)")
        for path in paths {
            let help = try Subprocess.run("snapshare-server", path + ["--help"]).stdout
            let listed = Self.options(help)
            let lines = help.split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines < 35, "\(path): \(lines) lines")
            #expect(
                !listed.contains("--listen") && !listed.contains("--max-connections") && !listed.contains("--photos"),
                "\(path) lists server options it does not use: \(listed.sorted())")
        }
        let add = try Subprocess.run("snapshare-server", ["admin", "add", "--help"]).stdout
        #expect(Self.options(add) == ["--password-stdin", "--site", "--config", "--data", "--database"], "\(add)")
        #expect(add.split(separator: "\n").count < 20, "\(add)")
        #expect(!Self.options(try Subprocess.run("snapshare-server", ["backup", "--help"]).stdout).isDisjoint(with: ["--to", "--data"]))
    }

    @Test("a server option given to a subcommand that does not use it is refused, naming the options it takes")
    func unusedServerOptionsAreRefused() throws {
        let directory = TemporaryDirectory("snapshare-help-scope")
        for arguments in [
            ["backup", "--to", directory.file("x.backup"), "--listen", "0.0.0.0:7443"],
            ["--max-connections", "5", "admin", "add", "teacher"],
        ] {
            let result = try Subprocess.run("snapshare-server", arguments + ["--data", directory.file("data")])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("does not apply to") && result.stderr.contains("--data"), "\(arguments): \(result.stderr)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
        // A config file full of server settings still serves the offline commands: they take what they use from it.
        let config = try directory.write(
            "listen = 0.0.0.0:7443\nmax-connections = 5\ndata = \(directory.file("data"))\n", to: "server.conf")
        let add = try Subprocess.run(
            "snapshare-server", ["admin", "add", "teacher", "--password-stdin", "--config", config],
            stdin: "a long admin password\n")
        #expect(add.status == 0, "\(add.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.file("data/snapshare.db")))
    }

    @Test("snapshare's commands that never reach a server do not list --server; the others do")
    func clientSubcommands() throws {
        for path in try Self.commands("snapshare") {
            let help = try Subprocess.run("snapshare", path + ["--help"]).stdout
            let listed = Self.options(help)
            let local = [
                ["samples"], ["camera"], ["vacation", "list"], ["vacation", "new"], ["vacation", "rm"], ["itinerary"], ["tags"], ["trust"],
            ]
            .contains(path)
            #expect(listed.contains("--server") != local, "\(path): \(listed.sorted())")
        }
        let refused = try Subprocess.run("snapshare", ["--server", "localhost:7443", "samples"])
        #expect(refused.status == 2 && refused.stderr.contains("does not apply to 'snapshare samples'"), "\(refused.stderr)")
    }
}
