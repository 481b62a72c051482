import CommandLineParsing
import Testing

@Suite("Config files")
struct ConfigFileTests {
    static let root = CommandSpec(
        "server", summary: "test",
        options: [
            OptionSpec("--listen", help: "address"),
            OptionSpec("--snap-ttl", help: "lifetime"),
            OptionSpec("--cert-host", help: "names", isRepeatable: true),
            OptionSpec("--class-code", help: "code", environmentVariable: "CODE", isSecret: true),
        ])

    private func parsed(_ arguments: [String], _ text: String, environment: [String: String] = [:]) throws -> ParsedCommand {
        guard case .run(let given) = try CommandLineParser(root: Self.root).parse(arguments, environment: environment) else {
            Issue.record("not a run")
            throw ConfigFileError("not a run")
        }
        return try given.filling(from: ConfigFile(text: text, path: "s.conf"), options: Self.root.options)
    }

    @Test func linesCommentsQuotesAndRepeats() throws {
        let file = try ConfigFile(
            text: "# a comment\n\n  listen =  0.0.0.0:7443 \r\ncert-host = a\ncert-host = b\nclass-code = \" spaced \"\n", path: "s.conf")
        #expect(file.entries.map(\.option) == ["--listen", "--cert-host", "--cert-host", "--class-code"])
        #expect(file.entries.map(\.value) == ["0.0.0.0:7443", "a", "b", " spaced "])
        #expect(file.entries.map(\.line) == [3, 4, 5, 6])
        #expect(file.entries[0].value == "0.0.0.0:7443")
    }

    @Test func theCommandLineThenTheEnvironmentWinOverTheFile() throws {
        let command = try parsed(
            ["--listen", "127.0.0.1:1"], "listen = 127.0.0.1:2\nsnap-ttl = 3d\nclass-code = file\ncert-host = x\n",
            environment: ["CODE": "env"])
        #expect(command.string("--listen") == "127.0.0.1:1")
        #expect(command.origin(of: "--listen") == nil && command.isFromCommandLine("--listen"))
        #expect(command.string("--class-code") == "env")
        #expect(command.origin(of: "--class-code") == "$CODE")
        #expect(command.string("--snap-ttl") == "3d")
        #expect(command.origin(of: "--snap-ttl") == "s.conf:2")
        #expect(command.valueError("--snap-ttl", "bad").message == "s.conf:2: bad")
        #expect(command.strings("--cert-host") == ["x"])
    }

    @Test func mistakesNameFileAndLine() {
        #expect(throws: ConfigFileError("s.conf:2: expected 'name = value', found 'listen'")) {
            try ConfigFile(text: "\nlisten\n", path: "s.conf")
        }
        #expect(throws: ConfigFileError.self) { try ConfigFile(text: "--listen = x\n", path: "s.conf") }
        #expect { try parsed([], "snap-tll = 1d\n") } throws: {
            ($0 as? UsageError)?.message == "s.conf:1: unknown setting 'snap-tll'; did you mean 'snap-ttl'?"
        }
        #expect { try parsed([], "listen = a\nlisten = b\n") } throws: {
            ($0 as? UsageError)?.message == "s.conf:2: listen is set twice (first on line 1)"
        }
    }

    @Test func differencesBetweenTwoReadings() throws {
        let before = try parsed([], "listen = a\nsnap-ttl = 1d\n")
        let after = try parsed([], "listen = a\nsnap-ttl = 2d\ncert-host = c\n")
        #expect(after.optionsDiffering(from: before) == ["--snap-ttl", "--cert-host"])
    }
}
