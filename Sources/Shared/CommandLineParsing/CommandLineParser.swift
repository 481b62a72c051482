/// Parses a command line against a `CommandSpec` tree.
///
/// Rules: options of a command are accepted anywhere after its name, including after its
/// subcommands' names; `--name=value` and `--name value` are the same; an option's value is the
/// next word unless that word is itself an option (`--feed --json` is a missing value, while
/// `--offset -5` takes `-5`); a negative number such as `-33.87` is a positional, not an
/// unknown option; `--` ends options; `-h`/`--help` returns help for the command
/// reached so far. Environment variables fill options that were not given.
public struct CommandLineParser: Sendable {
    /// The tree this parser accepts.
    public let root: CommandSpec
    private let treeNames: Set<String>

    /// A parser for `root`; the tree must have no `validationProblems()`.
    public init(root: CommandSpec) {
        let problems = root.validationProblems()
        precondition(problems.isEmpty, "invalid command tree:\n" + problems.joined(separator: "\n"))
        self.root = root
        func names(_ command: CommandSpec) -> [String] {
            command.options.map(\.name) + command.flags.map(\.name) + command.arguments.map(\.name)
                + command.subcommands.flatMap(names)
        }
        treeNames = Set(names(root) + ["--help"])
    }

    /// Parses `arguments` (without the program name).
    public func parse(
        _ arguments: [String], environment: [String: String] = [:]
    ) throws(UsageError) -> ParseOutcome {
        var chain = [root]
        var scope = Scope(chain)
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var optionsEnded = false

        func failure(_ message: String) -> UsageError {
            UsageError(message: message, usage: HelpText.usage(chain), commandPath: HelpText.commandPath(chain))
        }

        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if !optionsEnded {
                if word == "--" {
                    optionsEnded = true
                    continue
                }
                if word == "-h" || word == "--help" {
                    return .help(HelpText.render(chain))
                }
                if word == "--version" && chain.count == 1 && positionals.isEmpty {
                    return .version
                }
                // A negative number (`pin add -33.87 151.21`) is a positional unless some
                // option of this scope is literally called that.
                if word.hasPrefix("-") && word != "-" && !(scope.entries[word] == nil && Self.isNegativeNumber(word)) {
                    // Only long options take an inline value: `-x=1` is not a thing here.
                    var name = word
                    var inlineValue: String?
                    if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                        name = String(word[..<equals])
                        inlineValue = String(word[word.index(after: equals)...])
                    }
                    switch scope.entries[name] {
                    case nil where scope.excluded[name] != nil:
                        throw failure(scope.notApplying(scope.excluded[name]!, to: HelpText.commandPath(chain)))
                    case nil:
                        var message = "unknown option '\(name)'"
                        if let guess = EditDistance.suggestion(for: name, among: scope.longNames + ["--help"]) {
                            message += "; did you mean '\(guess)'?"
                        }
                        throw failure(message)
                    case .flag(let flag):
                        if inlineValue != nil { throw failure("flag \(flag.name) does not take a value") }
                        flags.insert(flag.name)
                    case .option(let option):
                        let value: String
                        if let inlineValue {
                            value = inlineValue
                        } else if index < arguments.count, !scope.looksLikeOption(arguments[index]) {
                            value = arguments[index]
                            index += 1
                        } else {
                            throw failure("missing value for \(option.name) \(option.valueName)")
                        }
                        if values[option.name] != nil && !option.isRepeatable {
                            throw failure("\(option.name) may be given only once")
                        }
                        values[option.name, default: []].append(value)
                    }
                    continue
                }
            }
            let command = chain[chain.count - 1]
            if !command.subcommands.isEmpty && !optionsEnded {
                guard let sub = command.subcommand(named: word) else {
                    var message = "unknown command '\(word)' for '\(HelpText.commandPath(chain))'"
                    if let guess = EditDistance.suggestion(for: word, among: command.subcommands.map(\.name)) {
                        message += "; did you mean '\(guess)'?"
                    }
                    throw failure(message)
                }
                chain.append(sub)
                scope = Scope(chain)
                continue
            }
            positionals.append(word)
        }

        let command = chain[chain.count - 1]
        // Given before the command that does not use it was named: `--listen h:1 admin add`.
        if let given = (Array(values.keys) + Array(flags)).sorted().first(where: { scope.entries[$0] == nil }) {
            throw failure(scope.notApplying(given, to: HelpText.commandPath(chain)))
        }
        if !command.subcommands.isEmpty && !(command.runsWithoutSubcommand && positionals.isEmpty) {
            let names = command.subcommands.map(\.name).joined(separator: ", ")
            if let extra = positionals.first { throw failure("unexpected argument '\(extra)'") }
            throw failure("missing command (one of: \(names))")
        }
        let required = command.arguments.filter(\.isRequired)
        if positionals.count < required.count {
            throw failure("missing argument <\(required[positionals.count].name)>")
        }
        if command.arguments.last?.isVariadic != true && positionals.count > command.arguments.count {
            throw failure("unexpected argument '\(positionals[command.arguments.count])'")
        }
        var environmentOrigins: [String: String] = [:]
        for option in scope.options where values[option.name] == nil {
            if let variable = option.environmentVariable, let value = environment[variable], !value.isEmpty {
                values[option.name] = [value]
                environmentOrigins[option.name] = variable
            }
        }
        return .run(
            ParsedCommand(
                path: chain.dropFirst().map(\.name),
                positionals: positionals,
                usage: HelpText.usage(chain),
                commandPath: HelpText.commandPath(chain),
                values: values,
                environmentOrigins: environmentOrigins,
                flags: flags,
                arguments: command.arguments,
                treeNames: treeNames,
                acceptedOptions: Set(scope.options.map(\.name))
            ))
    }

    /// Whether `word` is a plain negative decimal such as `-5`, `-33.87`, `-.5` or `-1e3`
    /// (not `-inf`, `-nan` or hexadecimal, which no one types as a coordinate).
    static func isNegativeNumber(_ word: String) -> Bool {
        guard word.hasPrefix("-") else { return false }
        var scalars = Substring(word).unicodeScalars.dropFirst()
        func digits() -> Int {
            var count = 0
            while let first = scalars.first, ("0"..."9").contains(first) {
                scalars.removeFirst()
                count += 1
            }
            return count
        }
        var mantissa = digits()
        if scalars.first == "." {
            scalars.removeFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let first = scalars.first, first == "e" || first == "E" {
            scalars.removeFirst()
            if let sign = scalars.first, sign == "+" || sign == "-" { scalars.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return scalars.isEmpty
    }

    /// The options and flags accepted at the current depth, by every name they answer to, and
    /// those of the commands above that this one does not use.
    private struct Scope {
        enum Entry {
            case option(OptionSpec)
            case flag(FlagSpec)
        }

        var entries: [String: Entry] = [:]
        var options: [OptionSpec] = []
        var longNames: [String] = []
        /// Every name of an option or flag of the chain that this command does not take, with its long name.
        var excluded: [String: String] = [:]

        /// What the last command of `chain` takes: its own, and what reaches it from above.
        init(_ chain: [CommandSpec]) {
            let inherited = CommandSpec.inherited(along: chain)
            let command = chain[chain.count - 1]
            for option in inherited.options + command.options {
                entries[option.name] = .option(option)
                if let short = option.short { entries[short] = .option(option) }
                options.append(option)
                longNames.append(option.name)
            }
            for flag in inherited.flags + command.flags {
                entries[flag.name] = .flag(flag)
                if let short = flag.short { entries[short] = .flag(flag) }
                longNames.append(flag.name)
            }
            for other in chain {
                let names = other.options.map { ($0.name, $0.short) } + other.flags.map { ($0.name, $0.short) }
                for (long, short) in names where entries[long] == nil {
                    excluded[long] = long
                    if let short { excluded[short] = long }
                }
            }
        }

        /// Why `name`, an option of a command above, is refused here: it does nothing for this command.
        func notApplying(_ name: String, to command: String) -> String {
            let takes = longNames.isEmpty ? "it takes no options" : "its options: \(longNames.joined(separator: ", "))"
            return "'\(name)' does not apply to '\(command)' (\(takes))"
        }

        /// Whether `word` would be read as an option, so it cannot be the previous option's value.
        func looksLikeOption(_ word: String) -> Bool {
            if word == "--" || word == "-h" || word == "--help" { return true }
            if word.hasPrefix("--") { return true }
            return entries[word] != nil
        }
    }
}
