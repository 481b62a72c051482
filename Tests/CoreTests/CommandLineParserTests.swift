import Testing

@testable import CommandLineParsing

/// A small tree shaped like the real client's, shared by the parser and help tests.
let commandLineSampleTree = CommandSpec(
    "snapshare",
    summary: "Share snaps with your class.",
    discussion: "Talks to a snapshare-server over TLS.",
    options: [
        OptionSpec(
            "--server", short: "-s", valueName: "HOST:PORT", help: "Server to talk to.",
            environmentVariable: "SNAPSHARE_SERVER"),
        OptionSpec("--ca", valueName: "FILE", help: "CA certificate to trust.", environmentVariable: "SNAPSHARE_CA"),
    ],
    flags: [FlagSpec("--json", help: "Print JSON.")],
    subcommands: [
        CommandSpec(
            "feed",
            summary: "Work with feeds.",
            subcommands: [
                CommandSpec("list", summary: "List feeds.", flags: [FlagSpec("--watch", short: "-w", help: "Keep watching.")]),
                CommandSpec(
                    "create",
                    summary: "Create a feed.",
                    arguments: [ArgumentSpec("name", help: "The feed's name.")],
                    options: [
                        OptionSpec("--ttl", short: "-t", valueName: "DURATION", help: "How long snaps live."),
                        OptionSpec("--limit", valueName: "N", help: "Most snaps kept."),
                        OptionSpec("--tag", valueName: "TAG", help: "A tag.", isRepeatable: true),
                    ],
                    exitCodes: [ExitCodeSpec(0, "Created."), ExitCodeSpec(3, "A feed of that name exists.")]
                ),
                CommandSpec("delete", summary: "Delete a feed.", arguments: [ArgumentSpec("name", help: "The feed.")]),
            ]
        ),
        CommandSpec(
            "post",
            summary: "Post photos.",
            arguments: [
                ArgumentSpec("feed", help: "Where to post."),
                ArgumentSpec("photo", help: "Photo files.", isRequired: false, isVariadic: true),
            ],
            options: [OptionSpec("--caption", short: "-c", help: "A caption.")]
        ),
    ]
)

private let parser = CommandLineParser(root: commandLineSampleTree)

private func run(_ words: [String], environment: [String: String] = [:]) throws -> ParsedCommand {
    guard case .run(let parsed) = try parser.parse(words, environment: environment) else {
        Issue.record("expected a command, got help")
        throw UsageError(message: "help", usage: "", commandPath: "")
    }
    return parsed
}

private func usageError(_ words: [String]) -> UsageError? {
    do {
        _ = try parser.parse(words)
        return nil
    } catch {
        return error
    }
}

@Suite struct CommandLineParserTests {
    @Test func theSampleTreeIsSound() {
        #expect(commandLineSampleTree.validationProblems() == [])
    }

    @Test func aSubcommandPathAndPositionalAreReturned() throws {
        let parsed = try run(["feed", "create", "cats"])
        #expect(parsed.path == ["feed", "create"])
        #expect(parsed.positionals == ["cats"])
        #expect(parsed.positional(0) == "cats")
        #expect(parsed.positional(1) == nil)
        #expect(parsed.string("name") == "cats")
        #expect(parsed.commandPath == "snapshare feed create")
    }

    @Test func globalOptionsMayComeBeforeOrAfterTheSubcommand() throws {
        let before = try run(["--server", "h:1", "--json", "feed", "list"])
        let between = try run(["feed", "--server", "h:1", "list", "--json"])
        let after = try run(["feed", "list", "--json", "-s", "h:1"])
        for parsed in [before, between, after] {
            #expect(parsed.path == ["feed", "list"])
            #expect(parsed.string("--server") == "h:1")
            #expect(parsed.flag("--json"))
            #expect(!parsed.flag("--watch"))
        }
    }

    @Test func anEqualsSignJoinsAnOptionAndItsValue() throws {
        let parsed = try run(["feed", "create", "--ttl=7d", "--server=[::1]:7443", "cats"])
        #expect(parsed.string("--ttl") == "7d")
        #expect(parsed.string("--server") == "[::1]:7443")
        let empty = try run(["feed", "create", "--ttl=", "cats"])
        #expect(empty.string("--ttl") == "")
    }

    @Test func aShortNameFindsTheLongOne() throws {
        let parsed = try run(["feed", "list", "-w", "-s", "x:2"])
        #expect(parsed.flag("--watch"))
        #expect(parsed.string("--server") == "x:2")
    }

    @Test func aValueMayStartWithADashUnlessItIsAnOption() throws {
        let parsed = try run(["post", "cats", "-c", "-_-"])
        #expect(parsed.string("--caption") == "-_-")
        #expect(usageError(["post", "cats", "--caption", "--json"])?.message == "missing value for --caption VALUE")
        #expect(usageError(["post", "cats", "--caption", "-s"])?.message == "missing value for --caption VALUE")
    }

    @Test func aMissingValueAtTheEndIsAnError() {
        let error = usageError(["feed", "create", "cats", "--ttl"])
        #expect(error?.message == "missing value for --ttl DURATION")
        #expect(error?.usage == "snapshare feed create [options] <name>")
    }

    @Test func anUnknownOptionIsNamedWithASuggestion() {
        let error = usageError(["feed", "list", "--sever", "h:1"])
        #expect(error?.message == "unknown option '--sever'; did you mean '--server'?")
        #expect(error?.usage == "snapshare feed list [options]")
        #expect(
            error?.description == """
                unknown option '--sever'; did you mean '--server'?
                Usage: snapshare feed list [options]
                Run 'snapshare feed list --help' for more information.
                """)
        #expect(usageError(["--zzzzzz"])?.message == "unknown option '--zzzzzz'")
        #expect(usageError(["-x"])?.message == "unknown option '-x'")
    }

    @Test func aSubcommandsOptionIsUnknownBeforeItsName() {
        #expect(usageError(["feed", "--watch", "list"])?.message == "unknown option '--watch'")
    }

    @Test func anUnknownSubcommandSuggestsTheClosestName() {
        let error = usageError(["fed", "list"])
        #expect(error?.message == "unknown command 'fed' for 'snapshare'; did you mean 'feed'?")
        #expect(error?.usage == "snapshare [options] <command>")
        #expect(usageError(["feed", "lst"])?.message == "unknown command 'lst' for 'snapshare feed'; did you mean 'list'?")
        #expect(usageError(["feed", "del"])?.message == "unknown command 'del' for 'snapshare feed'; did you mean 'delete'?")
        #expect(usageError(["feed", "zebra"])?.message == "unknown command 'zebra' for 'snapshare feed'")
    }

    @Test func aGroupWithoutASubcommandIsAnError() {
        #expect(usageError([])?.message == "missing command (one of: feed, post)")
        #expect(usageError(["feed"])?.message == "missing command (one of: list, create, delete)")
    }

    @Test func aRepeatedOptionIsRefusedUnlessRepeatable() throws {
        let error = usageError(["--server", "a:1", "feed", "list", "--server", "b:2"])
        #expect(error?.message == "--server may be given only once")
        let parsed = try run(["feed", "create", "--tag", "a", "cats", "--tag=b"])
        #expect(parsed.strings("--tag") == ["a", "b"])
        #expect(parsed.string("--tag") == "b")
        #expect(parsed.strings("--ttl") == [])
    }

    @Test func aFlagRefusesAValue() {
        #expect(usageError(["--json=yes", "feed", "list"])?.message == "flag --json does not take a value")
    }

    @Test func positionalsAreCountedAgainstTheSpec() throws {
        #expect(usageError(["feed", "create"])?.message == "missing argument <name>")
        #expect(usageError(["feed", "create", "a", "b"])?.message == "unexpected argument 'b'")
        let post = try run(["post", "cats", "a.jpg", "b.png"])
        #expect(post.string("feed") == "cats")
        #expect(post.strings("photo") == ["a.jpg", "b.png"])
        let bare = try run(["post", "cats"])
        #expect(bare.strings("photo") == [])
        #expect(bare.string("photo") == nil)
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try run(["post", "--json", "--", "cats", "--json", "-h", "-"])
        #expect(parsed.flag("--json"))
        #expect(parsed.positionals == ["cats", "--json", "-h", "-"])
        #expect(usageError(["feed", "--", "list"])?.message == "unexpected argument 'list'")
    }

    @Test func aNameFromElsewhereInTheTreeReadsAsAbsent() throws {
        let parsed = try run(["feed", "delete", "cats"])
        #expect(!parsed.flag("--watch"))
        #expect(parsed.string("--ttl") == nil)
        #expect(parsed.strings("photo") == [])
        #expect(parsed.string("name") == "cats")
    }

    @Test func aNegativeNumberIsAPositionalNotAnOption() throws {
        #expect(
            try run(["post", "-33.87", "151.21", "-5", "-.5", "-1e3", "-2.5E-4"]).positionals
                == ["-33.87", "151.21", "-5", "-.5", "-1e3", "-2.5E-4"])
        #expect(try run(["post", "cats", "-c", "-5"]).string("--caption") == "-5")
        for word in ["-inf", "-nan", "-1e", "-.", "-5x", "-0x10", "--5"] {
            #expect(usageError(["post", "cats", word])?.message.hasPrefix("unknown option") == true, "\(word)")
        }
    }

    @Test func aLoneDashIsAPositional() throws {
        #expect(try run(["post", "cats", "-"]).strings("photo") == ["-"])
    }

    @Test func theEnvironmentFillsOptionsThatWereNotGiven() throws {
        let environment = ["SNAPSHARE_SERVER": "env:1", "SNAPSHARE_CA": ""]
        let fromEnvironment = try run(["feed", "list"], environment: environment)
        #expect(fromEnvironment.string("--server") == "env:1")
        #expect(fromEnvironment.string("--ca") == nil)
        let given = try run(["feed", "list", "--server", "cli:2"], environment: environment)
        #expect(given.string("--server") == "cli:2")
    }

    @Test func intReportsTextThatIsNotANumber() throws {
        #expect(try run(["feed", "create", "--limit", "25", "cats"]).int("--limit") == 25)
        #expect(try run(["feed", "create", "cats"]).int("--limit") == nil)
        let parsed = try run(["feed", "create", "--limit", "lots", "cats"])
        #expect(
            throws: UsageError(
                message: "invalid value 'lots' for --limit: expected a whole number",
                usage: "snapshare feed create [options] <name>",
                commandPath: "snapshare feed create"
            )
        ) {
            try parsed.int("--limit")
        }
        #expect(throws: UsageError.self) { try run(["feed", "create", "--limit", "99999999999999999999", "c"]).int("--limit") }
        #expect(throws: UsageError.self) { try run(["feed", "create", "c"]).int("name") }
    }

    @Test func typedAccessorsParseSpansAndAddresses() throws {
        let parsed = try run(["--server", "[::1]", "feed", "create", "--ttl", "1d12h", "cats"])
        #expect(try parsed.timeSpan("--ttl") == TimeSpan(milliseconds: 36 * 3_600_000))
        #expect(try parsed.hostPort("--server", defaultPort: 7443) == HostPort(host: "::1", port: 7443))
        let bad = try run(["feed", "create", "--ttl", "7x", "cats"])
        #expect(throws: UsageError.self) { try bad.timeSpan("--ttl") }
        do {
            _ = try bad.timeSpan("--ttl")
        } catch {
            #expect(
                error.message == "invalid duration '7x': unknown unit 'x' (use w, d, h, m, s or ms) for --ttl; give a duration: "
                    + TimeSpan.forms)
        }
    }

    @Test func treeMistakesAreFound() {
        let broken = CommandSpec(
            "x", summary: "",
            arguments: [
                ArgumentSpec("a", help: "", isVariadic: true), ArgumentSpec("b", help: "", isRequired: false),
                ArgumentSpec("c", help: ""),
            ],
            options: [OptionSpec("--help", help: ""), OptionSpec("json", help: "")],
            flags: [FlagSpec("--json", short: "-jj", help: "")],
            subcommands: [CommandSpec("y", summary: "", flags: [FlagSpec("--json", help: "")])]
        )
        let problems = broken.validationProblems()
        #expect(problems.contains("x: '--help' is declared twice in the same scope"))
        #expect(problems.contains("x: option name 'json' must look like --name"))
        #expect(problems.contains("x: short name '-jj' must look like -x"))
        #expect(problems.contains("x: a command has subcommands or positional arguments, not both"))
        #expect(problems.contains("x: only the last argument may be variadic (<a>)"))
        #expect(problems.contains("x: required <c> follows an optional argument"))
        #expect(problems.contains("x y: '--json' is declared twice in the same scope"))
    }

    @Test func editDistanceCountsSingleEdits() {
        #expect(EditDistance.between("", "abc") == 3)
        #expect(EditDistance.between("kitten", "sitting") == 3)
        #expect(EditDistance.between("feed", "feed") == 0)
        #expect(EditDistance.suggestion(for: "x", among: ["feed", "post"]) == nil)
    }
}
