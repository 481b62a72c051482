/// One command of a command tree: what it is called, what it accepts, and its subcommands.
///
/// Options and flags declared on a command are also accepted by all of its descendants, before
/// or after their names: the root's `--server` works in `snapshare --server h:1 feed list` and in
/// `snapshare feed list --server h:1`. A descendant that uses only a few of them names those in
/// `globalOptions`: it accepts and lists only those (and passes only those on), and refuses the
/// rest wherever they are given. A command has either subcommands or positional arguments,
/// never both, so a bare word is never ambiguous.
public struct CommandSpec: Sendable {
    public var name: String
    /// One line, shown in the parent's command list and under the usage line.
    public var summary: String
    /// Longer text shown in this command's help, printed as written.
    public var discussion: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    public var flags: [FlagSpec]
    public var subcommands: [CommandSpec]
    /// When not empty, help ends with an "Exit codes:" section.
    public var exitCodes: [ExitCodeSpec]
    /// A command with subcommands that also runs on its own (`snapshare-server` serves when
    /// given no subcommand); otherwise naming no subcommand is a usage error.
    public var runsWithoutSubcommand: Bool
    /// The options and flags of the commands above this one that it uses (long names); nil when it
    /// takes them all. `snapshare-server admin add` uses `--data` and `--database`, not the
    /// server's forty others.
    public var globalOptions: [String]?

    public init(
        _ name: String,
        summary: String,
        discussion: String = "",
        arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [],
        flags: [FlagSpec] = [],
        subcommands: [CommandSpec] = [],
        exitCodes: [ExitCodeSpec] = [],
        globalOptions: [String]? = nil,
        runsWithoutSubcommand: Bool = false
    ) {
        self.globalOptions = globalOptions
        self.runsWithoutSubcommand = runsWithoutSubcommand
        self.name = name
        self.summary = summary
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.flags = flags
        self.subcommands = subcommands
        self.exitCodes = exitCodes
    }

    /// The options and flags the last command of `chain` (which starts at the root) takes from the
    /// commands above it: each command's own pass down, narrowed at every command that names the
    /// global options it uses. Help and the parser both read it.
    static func inherited(along chain: [CommandSpec]) -> (options: [OptionSpec], flags: [FlagSpec]) {
        var options: [OptionSpec] = []
        var flags: [FlagSpec] = []
        for (index, command) in chain.enumerated() {
            if let used = command.globalOptions.map(Set.init) {
                options.removeAll { !used.contains($0.name) }
                flags.removeAll { !used.contains($0.name) }
            }
            if index < chain.count - 1 {
                options += command.options
                flags += command.flags
            }
        }
        return (options, flags)
    }

    /// The direct subcommand called `name`.
    public func subcommand(named name: String) -> CommandSpec? {
        subcommands.first { $0.name == name }
    }

    /// Mistakes in the tree itself (a programmer's error, not a user's), empty when sound;
    /// `CommandLineParser` refuses a tree with any, and a test should assert each real tree is clean.
    public func validationProblems() -> [String] {
        var problems: [String] = []
        collectProblems(path: [], inheritedNames: ["-h", "--help"], inheritedOptions: [], into: &problems)
        return problems
    }

    private func collectProblems(path: [String], inheritedNames: Set<String>, inheritedOptions: Set<String>, into problems: inout [String])
    {
        let path = path + [name]
        let here = path.joined(separator: " ")
        var names = inheritedNames
        var reaching = inheritedOptions
        if let globalOptions {
            for option in globalOptions where !inheritedOptions.contains(option) {
                problems.append("\(here): uses the global option '\(option)', which no command above it declares")
            }
            reaching = Set(globalOptions)
        }
        reaching.formUnion(options.map(\.name) + flags.map(\.name))
        let declared = options.map { ($0.name, $0.short) } + flags.map { ($0.name, $0.short) }
        for (long, short) in declared {
            if !long.hasPrefix("--") || long.count < 3 || long.contains("=") {
                problems.append("\(here): option name '\(long)' must look like --name")
            }
            if let short, !(short.count == 2 && short.hasPrefix("-") && short != "--") {
                problems.append("\(here): short name '\(short)' must look like -x")
            }
            for n in [long] + (short.map { [$0] } ?? []) where !names.insert(n).inserted {
                problems.append("\(here): '\(n)' is declared twice in the same scope")
            }
        }
        if !subcommands.isEmpty && !arguments.isEmpty {
            problems.append("\(here): a command has subcommands or positional arguments, not both")
        }
        for (index, argument) in arguments.enumerated() {
            if argument.isVariadic && index != arguments.count - 1 {
                problems.append("\(here): only the last argument may be variadic (<\(argument.name)>)")
            }
            if argument.isRequired && arguments[..<index].contains(where: { !$0.isRequired }) {
                problems.append("\(here): required <\(argument.name)> follows an optional argument")
            }
        }
        var seen: Set<String> = []
        for sub in subcommands {
            if !seen.insert(sub.name).inserted {
                problems.append("\(here): subcommand '\(sub.name)' is declared twice")
            }
            if sub.name.isEmpty || sub.name.hasPrefix("-") {
                problems.append("\(here): subcommand name '\(sub.name)' is not a word")
            }
            sub.collectProblems(path: path, inheritedNames: names, inheritedOptions: reaching, into: &problems)
        }
    }
}
