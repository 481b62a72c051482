/// A command line that parsed: which command to run and the values given to it.
///
/// Options and flags are looked up by their long name (`"--feed"`), positional arguments by
/// index or by their declared name (`"feed"`). A name declared elsewhere in the tree but not
/// for this command reads as absent, so shared code may ask any command for `--json`; a name
/// declared nowhere is a typo and asserts. Typed accessors throw `UsageError` naming the option.
public struct ParsedCommand: Sendable {
    /// Subcommand names below the root, e.g. `["feed", "create"]`; empty for the root itself.
    public let path: [String]
    /// Every positional argument, in order.
    public let positionals: [String]
    /// The usage line of this command, for errors the caller finds itself.
    public let usage: String
    /// The names from the root to this command, e.g. `snapshare feed create`.
    public let commandPath: String

    private var values: [String: [String]]
    /// Options whose value came from their environment variable, by option name.
    private let environmentOrigins: [String: String]
    /// Options whose value came from a config file, by option name: `path:line`.
    private var fileOrigins: [String: String] = [:]
    private let flags: Set<String>
    private let arguments: [ArgumentSpec]
    /// Every option, flag and argument name in the whole tree, to catch typos.
    private let treeNames: Set<String>
    /// The options this command takes (its own and the global ones it uses), which a config file may fill.
    private let acceptedOptions: Set<String>

    init(
        path: [String], positionals: [String], usage: String, commandPath: String,
        values: [String: [String]], environmentOrigins: [String: String] = [:], flags: Set<String>,
        arguments: [ArgumentSpec], treeNames: Set<String>, acceptedOptions: Set<String>
    ) {
        self.acceptedOptions = acceptedOptions
        self.environmentOrigins = environmentOrigins
        self.path = path
        self.positionals = positionals
        self.usage = usage
        self.commandPath = commandPath
        self.values = values
        self.flags = flags
        self.arguments = arguments
        self.treeNames = treeNames
    }

    /// The environment variable an option's value came from, or nil when it was given on the
    /// command line (or not at all).
    public func environmentVariable(of name: String) -> String? { environmentOrigins[name] }

    /// Where the option's value came from when it was not the command line: `path:line` of a
    /// config file, or `$VARIABLE`; nil for the command line (or no value).
    public func origin(of name: String) -> String? {
        fileOrigins[name] ?? environmentOrigins[name].map { "$" + $0 }
    }

    /// Whether the option's value was typed on the command line itself.
    public func isFromCommandLine(_ name: String) -> Bool {
        values[name] != nil && origin(of: name) == nil
    }

    /// This command with the settings of `file` filled in for `options` not given on the command
    /// line or in their environment variable (those win, in that order). A name that is no
    /// option, or a setting given twice that may be given once, throws with the file and line.
    /// A setting of an option this command does not take (a server setting, for an offline
    /// command reading the server's file) is left out.
    public func filling(from file: ConfigFile, options: [OptionSpec], excluding excluded: Set<String> = []) throws(UsageError)
        -> ParsedCommand
    {
        var filled = self
        var fromFile: [String: [String]] = [:]
        var firstLine: [String: ConfigFile.Entry] = [:]
        for entry in file.entries {
            let location = file.location(entry)
            guard let option = options.first(where: { $0.name == entry.option }), !excluded.contains(entry.option) else {
                let name = String(entry.option.dropFirst(2))
                var message = "\(location): unknown setting '\(name)'"
                let known = options.map { String($0.name.dropFirst(2)) }.filter { !excluded.contains("--" + $0) }
                if let guess = EditDistance.suggestion(for: name, among: known) { message += "; did you mean '\(guess)'?" }
                throw usageError(message)
            }
            if let first = firstLine[option.name], !option.isRepeatable {
                throw usageError("\(location): \(entry.option.dropFirst(2)) is set twice (first on line \(first.line))")
            }
            firstLine[option.name] = firstLine[option.name] ?? entry
            fromFile[option.name, default: []].append(entry.value)
        }
        for (name, values) in fromFile where self.values[name] == nil && acceptedOptions.contains(name) {
            filled.values[name] = values
            filled.fileOrigins[name] = firstLine[name].map(file.location)
        }
        return filled
    }

    /// The options whose values differ between this command and `other` (added, removed or changed).
    public func optionsDiffering(from other: ParsedCommand) -> Set<String> {
        Set(values.keys).union(other.values.keys).filter { values[$0] != other.values[$0] }
    }

    /// An error about the value of option `name`, which names the file and line (or the
    /// environment variable) the value came from when it was not the command line.
    public func valueError(_ name: String, _ message: String) -> UsageError {
        usageError(origin(of: name).map { "\($0): \(message)" } ?? message)
    }

    /// The positional at `index`, or nil when fewer were given.
    public func positional(_ index: Int) -> String? {
        positionals.indices.contains(index) ? positionals[index] : nil
    }

    /// Whether the flag was given.
    public func flag(_ name: String) -> Bool {
        assert(treeNames.contains(name), "no command declares the flag \(name)")
        return flags.contains(name)
    }

    /// The option's value (the last one when repeated), the environment fallback, or the
    /// positional argument called `name`; nil when absent.
    public func string(_ name: String) -> String? {
        strings(name).last
    }

    /// Every value of a repeatable option, or every positional a variadic argument took.
    public func strings(_ name: String) -> [String] {
        if let index = arguments.firstIndex(where: { $0.name == name }) {
            guard index < positionals.count else { return [] }
            return arguments[index].isVariadic ? Array(positionals[index...]) : [positionals[index]]
        }
        assert(treeNames.contains(name), "no command declares the option or argument \(name)")
        return values[name] ?? []
    }

    /// The value as a whole number; throws when it is not one.
    public func int(_ name: String) throws(UsageError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else {
            throw valueError(name, "invalid value '\(text)' for \(displayName(name)): expected a whole number")
        }
        return value
    }

    /// The value as a `TimeSpan` such as `7d` or `1d12h`; throws, showing the forms accepted,
    /// when it is not one.
    public func timeSpan(_ name: String) throws(UsageError) -> TimeSpan? {
        guard let text = string(name) else { return nil }
        do {
            return try TimeSpan(parsing: text)
        } catch {
            throw valueError(name, "\(error.message) for \(displayName(name)); give a duration: \(TimeSpan.forms)")
        }
    }

    /// The value as a `TimeSpan` longer than nothing (a suspension, an age, a lifetime); throws,
    /// showing the forms accepted, when it is not one or is `0s`.
    public func positiveTimeSpan(_ name: String) throws(UsageError) -> TimeSpan? {
        guard let text = string(name) else { return nil }
        let span: TimeSpan
        do {
            span = try TimeSpan(parsing: text)
        } catch {
            throw valueError(name, "\(error.message) for \(displayName(name)); give a positive duration: \(TimeSpan.forms)")
        }
        guard span.milliseconds > 0 else {
            throw valueError(name, "\(displayName(name)) must be longer than 0s; give a positive duration: \(TimeSpan.forms)")
        }
        return span
    }

    /// The value as a `HostPort`, using `defaultPort` when it names no port; throws when malformed.
    public func hostPort(_ name: String, defaultPort: UInt16) throws(UsageError) -> HostPort? {
        guard let text = string(name) else { return nil }
        do {
            return try HostPort(parsing: text, defaultPort: defaultPort)
        } catch {
            throw valueError(name, "\(error.message) for \(displayName(name))")
        }
    }

    /// An error carrying this command's usage, for problems only the caller can see.
    public func usageError(_ message: String) -> UsageError {
        UsageError(message: message, usage: usage, commandPath: commandPath)
    }

    private func displayName(_ name: String) -> String {
        name.hasPrefix("-") ? name : "<\(name)>"
    }
}
