/// Renders usage lines and help texts for a command, given the chain of commands from the root.
enum HelpText {
    /// `-h`/`--help`, accepted by every command and listed with its own options.
    static let helpFlag = FlagSpec("--help", short: "-h", help: "Show help for this command.")
    /// `--version`, accepted before any command and listed with the program's own options.
    static let versionFlag = FlagSpec("--version", help: "Show the version, the protocol versions spoken and the commit built.")

    /// The names from the root to the last command: `snapshare feed create`.
    static func commandPath(_ chain: [CommandSpec]) -> String {
        chain.map(\.name).joined(separator: " ")
    }

    /// The usage line without its `Usage: ` prefix: `snapshare feed create [options] <name>`.
    static func usage(_ chain: [CommandSpec]) -> String {
        let command = chain[chain.count - 1]
        var parts = [commandPath(chain), "[options]"]
        if !command.subcommands.isEmpty { parts.append("<command>") }
        parts += command.arguments.map(\.usageText)
        return parts.joined(separator: " ")
    }

    /// The whole help text of the last command in `chain`, ending without a newline.
    static func render(_ chain: [CommandSpec]) -> String {
        let command = chain[chain.count - 1]
        var sections: [[(left: String, right: String)]] = []
        var titles: [String] = []
        func add(_ title: String, _ rows: [(String, String)]) {
            guard !rows.isEmpty else { return }
            titles.append(title)
            sections.append(rows.map { (left: $0.0, right: $0.1) })
        }
        add("Arguments:", command.arguments.map { ($0.usageText, $0.help) })
        add("Options:", rows(options: command.options, flags: command.flags + [helpFlag] + (chain.count == 1 ? [versionFlag] : [])))
        let inherited = CommandSpec.inherited(along: chain)
        add("Global options:", rows(options: inherited.options, flags: inherited.flags))
        add("Commands:", command.subcommands.map { ($0.name, $0.summary) })
        add("Exit codes:", command.exitCodes.map { (String($0.code), $0.meaning) })

        // One left column for every section, so the whole text lines up; a very long left
        // side gets its help on the next line instead of pushing every row to the right.
        let widthLimit = 30
        let leftWidth = sections.joined().map(\.left.count).filter { $0 <= widthLimit }.max() ?? 0
        var lines = ["Usage: \(usage(chain))"]
        if !command.summary.isEmpty { lines += ["", command.summary] }
        if !command.discussion.isEmpty { lines += ["", command.discussion] }
        for (title, rows) in zip(titles, sections) {
            lines += ["", title]
            for row in rows {
                let left = "  " + row.left
                if row.right.isEmpty {
                    lines.append(left)
                } else if row.left.count > leftWidth {
                    lines += [left, String(repeating: " ", count: leftWidth + 4) + row.right]
                } else {
                    lines.append(left + String(repeating: " ", count: leftWidth - row.left.count + 2) + row.right)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func rows(options: [OptionSpec], flags: [FlagSpec]) -> [(String, String)] {
        func names(_ long: String, _ short: String?) -> String {
            // Long names line up whether or not a short name precedes them.
            (short.map { "\($0), " } ?? "    ") + long
        }
        let optionRows = options.map { option -> (String, String) in
            var help = option.help
            if option.isRepeatable { help += " (repeatable)" }
            if let variable = option.environmentVariable { help += " [env: \(variable)]" }
            if let value = option.defaultValue { help += " [default: \(value)]" }
            return (names(option.name, option.short) + " " + option.valueName, help)
        }
        return optionRows + flags.map { (names($0.name, $0.short), $0.help) }
    }
}
