import CommandLineParsing

/// One `snapshare` command, declared once in `CommandTree`: its name, help, arguments and
/// options (the parser's `CommandSpec`), and what runs it (a leaf) or its subcommands (a group).
struct Command: Sendable {
    /// What a leaf command does; failures map to exit codes in `CLI`.
    typealias Runner = @Sendable (CommandContext) throws(ClientError) -> Void

    private let spec: CommandSpec
    private let run: Runner?
    private let subcommands: [Command]

    /// A command that runs.
    init(
        _ name: String, summary: String, discussion: String = "", arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], flags: [FlagSpec] = [], exitCodes: [ExitCodeSpec] = [], globalOptions: [String]? = nil,
        run: @escaping Runner
    ) {
        spec = CommandSpec(
            name, summary: summary, discussion: discussion, arguments: arguments, options: options,
            flags: flags, exitCodes: exitCodes, globalOptions: globalOptions)
        self.run = run
        subcommands = []
    }

    /// A group of commands (`admin`, `pin`, …), or the root.
    init(
        _ name: String, summary: String, discussion: String = "", options: [OptionSpec] = [], flags: [FlagSpec] = [],
        subcommands: [Command], exitCodes: [ExitCodeSpec] = [], globalOptions: [String]? = nil
    ) {
        spec = CommandSpec(
            name, summary: summary, discussion: discussion, options: options, flags: flags,
            exitCodes: exitCodes, globalOptions: globalOptions)
        run = nil
        self.subcommands = subcommands
    }

    /// A command that runs, and has subcommands of its own (`admin roster` lists, `admin roster remove` edits).
    init(
        _ name: String, summary: String, discussion: String = "", flags: [FlagSpec] = [], subcommands: [Command],
        exitCodes: [ExitCodeSpec] = [], run: @escaping Runner
    ) {
        spec = CommandSpec(name, summary: summary, discussion: discussion, flags: flags, exitCodes: exitCodes, runsWithoutSubcommand: true)
        self.run = run
        self.subcommands = subcommands
    }

    /// The parser's tree of this command and everything below it.
    var tree: CommandSpec {
        var tree = spec
        tree.subcommands = subcommands.map(\.tree)
        return tree
    }

    /// What runs the command at `path` below this one (names after this command's own).
    func runner(for path: [String]) -> Runner? {
        guard let first = path.first else { return run }
        return subcommands.first { $0.spec.name == first }?.runner(for: Array(path.dropFirst()))
    }
}
