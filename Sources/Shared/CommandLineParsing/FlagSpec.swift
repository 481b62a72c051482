/// A boolean switch that takes no value, such as `--json` or `-w`.
public struct FlagSpec: Sendable {
    /// The long name including its dashes, such as `--watch`.
    public var name: String
    /// The short name including its dash, such as `-w`.
    public var short: String?
    /// One line for the help text.
    public var help: String

    public init(_ name: String, short: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.help = help
    }
}
