/// A command line the user got wrong: what is wrong, and how the command is used.
///
/// `description` is what a CLI prints to standard error (after its own `name: ` prefix) before
/// exiting with its usage code: the message, the usage line, and where to find more help.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in one line, e.g. `unknown option '--sever'; did you mean '--server'?`.
    public var message: String
    /// The usage line of the deepest command reached, without the `Usage: ` prefix.
    public var usage: String
    /// The names from the root to that command, e.g. `snapshare feed create`.
    public var commandPath: String

    public init(message: String, usage: String, commandPath: String) {
        self.message = message
        self.usage = usage
        self.commandPath = commandPath
    }

    public var description: String {
        """
        \(message)
        Usage: \(usage)
        Run '\(commandPath) --help' for more information.
        """
    }
}
