/// A positional argument of a command, such as the `<feed>` in `snapshare feed delete <feed>`.
public struct ArgumentSpec: Sendable {
    /// The name shown in usage and help, without angle brackets.
    public var name: String
    /// One line for the help text.
    public var help: String
    /// Whether parsing fails when the argument is absent.
    public var isRequired: Bool
    /// Whether the argument takes every remaining positional; only the last argument may.
    public var isVariadic: Bool

    public init(_ name: String, help: String, isRequired: Bool = true, isVariadic: Bool = false) {
        self.name = name
        self.help = help
        self.isRequired = isRequired
        self.isVariadic = isVariadic
    }

    /// The argument as the usage line shows it: `<name>`, `[<name>]`, `<name>...`.
    var usageText: String {
        let base = isVariadic ? "<\(name)>..." : "<\(name)>"
        return isRequired ? base : "[\(base)]"
    }
}
