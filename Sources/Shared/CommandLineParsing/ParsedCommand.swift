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

    private let values: [String: [String]]
    /// Options whose value came from their environment variable, by option name.
    private let environmentOrigins: [String: String]
    private let flags: Set<String>
    private let arguments: [ArgumentSpec]
    /// Every option, flag and argument name in the whole tree, to catch typos.
    private let treeNames: Set<String>

    init(
        path: [String], positionals: [String], usage: String, commandPath: String,
        values: [String: [String]], environmentOrigins: [String: String] = [:], flags: Set<String>,
        arguments: [ArgumentSpec], treeNames: Set<String>
    ) {
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
            throw usageError("invalid value '\(text)' for \(displayName(name)): expected a whole number")
        }
        return value
    }

    /// The value as a `TimeSpan` such as `7d` or `1d12h`; throws when it is not one.
    public func timeSpan(_ name: String) throws(UsageError) -> TimeSpan? {
        guard let text = string(name) else { return nil }
        do {
            return try TimeSpan(parsing: text)
        } catch {
            throw usageError("\(error.message) for \(displayName(name))")
        }
    }

    /// The value as a `HostPort`, using `defaultPort` when it names no port; throws when malformed.
    public func hostPort(_ name: String, defaultPort: UInt16) throws(UsageError) -> HostPort? {
        guard let text = string(name) else { return nil }
        do {
            return try HostPort(parsing: text, defaultPort: defaultPort)
        } catch {
            throw usageError("\(error.message) for \(displayName(name))")
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
