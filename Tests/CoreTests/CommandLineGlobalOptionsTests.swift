import Testing

@testable import CommandLineParsing

/// A server-like tree: the root runs the server with many options; its subcommands name the few
/// of them they use.
private let tree = CommandSpec(
    "server",
    summary: "Serve.",
    options: [
        OptionSpec("--listen", valueName: "HOST:PORT", help: "Where to listen.", defaultValue: "127.0.0.1:7443"),
        OptionSpec("--data", valueName: "DIR", help: "The data folder.", defaultValue: "./data"),
        OptionSpec("--key", valueName: "KEY", help: "A secret.", environmentVariable: "KEY"),
    ],
    flags: [FlagSpec("--verbose", help: "Say more.")],
    subcommands: [
        CommandSpec(
            "admin", summary: "Accounts.",
            subcommands: [
                CommandSpec(
                    "add", summary: "Add an admin.", arguments: [ArgumentSpec("USER", help: "The name.")],
                    flags: [FlagSpec("--password-stdin", help: "Read the password.")], globalOptions: ["--data"])
            ]),
        CommandSpec(
            "backup", summary: "Back up.", options: [OptionSpec("--to", valueName: "FILE", help: "The new file.")],
            globalOptions: ["--data", "--verbose"]),
        CommandSpec("check", summary: "Check everything."),
    ],
    runsWithoutSubcommand: true)

private let parser = CommandLineParser(root: tree)

private func help(_ words: [String]) throws -> String {
    guard case .help(let text) = try parser.parse(words) else { return "" }
    return text
}

@Suite struct CommandLineGlobalOptionsTests {
    @Test func aSubcommandListsOnlyTheGlobalOptionsItUses() throws {
        let add = try help(["admin", "add", "--help"])
        #expect(
            add.contains("\nGlobal options:\n      --data DIR") && !add.contains("--listen") && !add.contains("--key")
                && !add.contains("--verbose"),
            "\(add)")
        let backup = try help(["backup", "--help"])
        #expect(backup.contains("--data DIR") && backup.contains("--verbose") && !backup.contains("--listen"), "\(backup)")
        // Without a list, a subcommand takes every global option, as before.
        #expect(try help(["check", "--help"]).contains("--listen HOST:PORT"))
        // A group lists what it passes on to its commands.
        let admin = try help(["admin", "--help"])
        #expect(admin.contains("--listen") && admin.contains("add"), "\(admin)")
    }

    @Test func aDefaultIsShownTheSameWayForEveryOption() throws {
        let root = try help(["--help"])
        #expect(
            root.contains("Where to listen. [default: 127.0.0.1:7443]") && root.contains("The data folder. [default: ./data]"), "\(root)")
    }

    @Test func aGlobalOptionTheSubcommandDoesNotUseIsRefusedWhereverItIsGiven() throws {
        for words in [["--listen", "h:1", "admin", "add", "bob"], ["admin", "add", "bob", "--listen", "h:1"], ["backup", "--key", "k"]] {
            #expect(throws: UsageError.self, "\(words)") { try parser.parse(words) }
            do { _ = try parser.parse(words) } catch {
                #expect(error.message.contains("does not apply to"), "\(error.message)")
                #expect(error.message.contains("--data"), "names what it takes: \(error.message)")
            }
        }
        guard case .run(let parsed) = try parser.parse(["--data", "d", "admin", "add", "bob"], environment: ["KEY": "secret"]) else {
            Issue.record("expected a command")
            return
        }
        #expect(parsed.string("--data") == "d" && parsed.string("--key") == nil, "an unused option's variable is not read")
        #expect(tree.validationProblems().isEmpty)
    }

    @Test func aSubcommandCannotNameAGlobalOptionNoAncestorDeclares() {
        let broken = CommandSpec(
            "x", summary: "", options: [OptionSpec("--a", help: "")],
            subcommands: [CommandSpec("y", summary: "", globalOptions: ["--b"])])
        #expect(broken.validationProblems() == ["x y: uses the global option '--b', which no command above it declares"])
    }
}
