/// An option that takes a value: `--feed NAME`, `--feed=NAME` or `-f NAME`.
public struct OptionSpec: Sendable {
    /// The long name including its dashes, such as `--feed`; accessors look values up by it.
    public var name: String
    /// The short name including its dash, such as `-f`.
    public var short: String?
    /// One line for the help text.
    public var help: String
    /// The placeholder shown after the name in help, such as `HOST:PORT`.
    public var valueName: String
    /// Whether the option may be given more than once; every value is kept in order.
    public var isRepeatable: Bool
    /// An environment variable whose non-empty value is used when the option is absent.
    public var environmentVariable: String?
    /// A secret (a class code, an API key): a config file holding it should be readable by its owner alone.
    public var isSecret: Bool
    /// The value used when the option is not given, as help shows it (`[default: 7d]`); nil when
    /// there is none (the option is off, or its absence means something the help says).
    public var defaultValue: String?

    public init(
        _ name: String,
        short: String? = nil,
        valueName: String = "VALUE",
        help: String,
        isRepeatable: Bool = false,
        environmentVariable: String? = nil,
        isSecret: Bool = false,
        defaultValue: String? = nil
    ) {
        self.isSecret = isSecret
        self.defaultValue = defaultValue
        self.name = name
        self.short = short
        self.help = help
        self.valueName = valueName
        self.isRepeatable = isRepeatable
        self.environmentVariable = environmentVariable
    }
}
