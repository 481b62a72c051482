import Testing

@testable import CommandLineParsing

private let parser = CommandLineParser(root: commandLineSampleTree)

private func help(_ words: [String]) throws -> String {
    guard case .help(let text) = try parser.parse(words) else {
        Issue.record("expected help for \(words)")
        return ""
    }
    return text
}

@Suite struct CommandLineHelpTests {
    @Test func rootHelpListsOptionsEnvironmentAndCommands() throws {
        let text = try help(["--help"])
        #expect(
            text == """
                Usage: snapshare [options] <command>

                Share snaps with your class.

                Talks to a snapshare-server over TLS.

                Options:
                  -s, --server HOST:PORT  Server to talk to. [env: SNAPSHARE_SERVER]
                      --ca FILE           CA certificate to trust. [env: SNAPSHARE_CA]
                      --json              Print JSON.
                  -h, --help              Show help for this command.
                      --version           Show the version, the protocol versions spoken and the commit built.

                Commands:
                  feed                    Work with feeds.
                  post                    Post photos.
                """)
        #expect(try help(["-h"]) == text)
    }

    @Test func groupHelpListsItsSubcommandsAndGlobalOptions() throws {
        let text = try help(["feed", "-h"])
        #expect(text.hasPrefix("Usage: snapshare feed [options] <command>\n\nWork with feeds.\n"))
        #expect(text.contains("\nGlobal options:\n  -s, --server HOST:PORT  Server to talk to. [env: SNAPSHARE_SERVER]\n"))
        #expect(text.contains("\nCommands:\n  list                    List feeds.\n  create                  Create a feed.\n"))
        #expect(try help(["--json", "feed", "--help", "no-such-command"]) == text)
    }

    @Test func leafHelpListsArgumentsOptionsAndExitCodes() throws {
        let text = try help(["feed", "create", "--ttl", "7d", "--help"])
        #expect(
            text == """
                Usage: snapshare feed create [options] <name>

                Create a feed.

                Arguments:
                  <name>                  The feed's name.

                Options:
                  -t, --ttl DURATION      How long snaps live.
                      --limit N           Most snaps kept.
                      --tag TAG           A tag. (repeatable)
                  -h, --help              Show help for this command.

                Global options:
                  -s, --server HOST:PORT  Server to talk to. [env: SNAPSHARE_SERVER]
                      --ca FILE           CA certificate to trust. [env: SNAPSHARE_CA]
                      --json              Print JSON.

                Exit codes:
                  0                       Created.
                  3                       A feed of that name exists.
                """)
    }

    @Test func helpAtEveryLevelNamesEveryOptionInScope() throws {
        for words in [["-h"], ["feed", "-h"], ["feed", "list", "-h"], ["feed", "create", "-h"], ["post", "-h"]] {
            let text = try help(words)
            for expected in ["--server HOST:PORT", "[env: SNAPSHARE_SERVER]", "--ca FILE", "[env: SNAPSHARE_CA]", "--json", "-h, --help"] {
                #expect(text.contains(expected), "\(words) help lacks \(expected)")
            }
        }
        #expect(try help(["feed", "list", "-h"]).contains("-w, --watch"))
        #expect(try help(["post", "-h"]).contains("  [<photo>...]"))
    }

    @Test func versionIsAskedForBeforeAnyCommandOnly() throws {
        guard case .version = try parser.parse(["--version"]) else {
            Issue.record("expected .version")
            return
        }
        #expect(throws: UsageError.self) { try parser.parse(["feed", "--version"]) }
        #expect(try help(["feed", "-h"]).contains("--version") == false)
    }

    @Test func anErrorBeforeHelpIsStillAnError() {
        #expect(throws: UsageError.self) { try parser.parse(["--bogus", "--help"]) }
    }

    @Test func aLongLeftColumnPutsHelpOnTheNextLine() throws {
        let tree = CommandSpec(
            "t", summary: "",
            options: [
                OptionSpec("--a-really-long-option-name", valueName: "SOMETHING", help: "Long.")
            ])
        guard case .help(let text) = try CommandLineParser(root: tree).parse(["-h"]) else { return }
        #expect(text.contains("\n      --a-really-long-option-name SOMETHING\n                 Long.\n"))
        #expect(
            text.hasSuffix(
                """

                  -h, --help     Show help for this command.
                      --version  Show the version, the protocol versions spoken and the commit built.
                """
            ))
    }
}
