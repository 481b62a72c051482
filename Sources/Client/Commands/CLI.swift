import CommandLineParsing
import Posix
import Release
import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// The `snapshare` program: parse, run one command, map failures to documented exit codes.
public enum CLI {
    /// Runs the client with `arguments` (without the program name); returns the exit code.
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        run(arguments: arguments, environment: environment, console: Console())
    }

    /// `run`, writing to `console`.
    static func run(arguments: [String], environment: [String: String], console: Console) -> Int32 {
        Signals.ignore(SIGPIPE)
        let parser = CommandLineParser(root: CommandTree.root)
        let parsed: ParsedCommand
        // No command: the app on a terminal (or when an option of the app's is given), else the help.
        let arguments = AppCommand.implied(by: arguments, onTerminal: Terminal.isTerminal(0) && Terminal.isTerminal(1)) ?? arguments
        do {
            switch try parser.parse(arguments, environment: environment) {
            case .help(let text):
                console.raw(text.hasSuffix("\n") ? text : text + "\n")
                return ExitCode.success.rawValue
            case .version:
                console.raw(Release.versionLine(program: "snapshare") + "\n")
                return ExitCode.success.rawValue
            case .run(let command):
                parsed = command
            }
        } catch {
            console.err("snapshare: \(error.description)")
            return ExitCode.usage.rawValue
        }
        let context = CommandContext(parsed: parsed, environment: environment, console: console)
        do {
            try dispatch(context)
            return ExitCode.success.rawValue
        } catch {
            console.err("snapshare: \(error.message)" + (error.remedy.map { "; " + $0.commandLine } ?? ""))
            return error.exitCode
        }
    }

    private static func dispatch(_ context: CommandContext) throws(ClientError) {
        // The parser accepted the path, so the tree has a command there; groups never parse alone.
        guard let run = CommandTree.command.runner(for: context.parsed.path) else {
            throw ClientError(.usage, "unknown command \(context.parsed.path.joined(separator: " "))")
        }
        try run(context)
    }
}
