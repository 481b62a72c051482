import Testing

@testable import Client
@testable import CommandLineParsing

@Suite struct CommandTreeTests {
    /// The paths of every leaf of `spec`, below the root.
    static func leaves(_ spec: CommandSpec, _ path: [String] = []) -> [[String]] {
        spec.subcommands.isEmpty ? [path] : spec.subcommands.flatMap { leaves($0, path + [$0.name]) }
    }

    @Test func everyCommandTheParserKnowsRunsAndTheTreeIsSound() {
        #expect(CommandTree.root.validationProblems().isEmpty)
        let paths = Self.leaves(CommandTree.root)
        #expect(paths.count > 40)
        for path in paths { #expect(CommandTree.command.runner(for: path) != nil, "\(path)") }
        #expect(CommandTree.command.runner(for: ["admin"]) == nil, "a group does not run")
        #expect(CommandTree.command.runner(for: ["no-such"]) == nil)
    }
}
