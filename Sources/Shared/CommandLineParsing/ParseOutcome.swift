/// What a command line asked for: to run a command, or to see a help text.
public enum ParseOutcome: Sendable {
    /// Run the command; its path and values are in the `ParsedCommand`.
    case run(ParsedCommand)
    /// `-h` or `--help` was given: print this text to standard output and exit successfully.
    case help(String)
    /// `--version` was given (before any command): print the program's version line and exit
    /// successfully.
    case version
}
