import CommandLineParsing
import Testing

@testable import Server

/// `snapshare-server`'s commands and the audit log: every command of the command line but the
/// server itself is declared with what the log records of it.
@Suite struct MaintenanceCommandTests {
    /// The word paths of every command that runs: the leaves of the command tree, and a group that
    /// runs without a subcommand too (`admin roster` lists, `admin roster remove` edits); the root
    /// itself is the server.
    static func leaves(_ spec: CommandSpec, _ path: [String] = []) -> [[String]] {
        let runs = !path.isEmpty && (spec.subcommands.isEmpty || spec.runsWithoutSubcommand)
        return (runs ? [path] : []) + spec.subcommands.flatMap { leaves($0, path + [$0.name]) }
    }

    @Test("every snapshare-server command is declared with its audit, and nothing else is")
    func everyCommandDeclaresItsAudit() {
        let commands = Set(Self.leaves(ServerCommandLine.root))
        #expect(commands == Set(ServerCommandLine.maintenance.keys), "\(commands.symmetricDifference(ServerCommandLine.maintenance.keys))")
        let unrecorded = ServerCommandLine.maintenance.filter { if case .readsTheLog = $0.value { true } else { false } }.map(\.key)
        #expect(unrecorded == [["admin", "audit"]], "only reading the log itself goes unrecorded")
    }
}
