import CommandLineParsing

/// Every `snapshare-server` command but serving, declared once with what the audit log records
/// of it: one entry per run, whatever way it ends (`OfflineAction`), or nothing for the one that
/// only reads the log itself. A command of `root` missing here fails a test
/// (`MaintenanceCommandTests`), so none can run unrecorded by being left out.
enum MaintenanceCommand: Sendable {
    /// Recorded under this action's name.
    case recorded(_ action: String, _ run: @Sendable (ParsedCommand, OfflineAction) throws -> Int32)
    /// Not recorded: it reads the audit log, and nothing else.
    case readsTheLog(_ run: @Sendable (ParsedCommand) throws -> Int32)

    /// Runs the command on the class's data that --data or --database names.
    func run(_ parsed: ParsedCommand) throws -> Int32 {
        switch self {
        case .recorded(let action, let run):
            try OfflineAction.run(action, store: ServerCommandLine.storeConfiguration(parsed)) { try run(parsed, $0) }
        case .readsTheLog(let run):
            try run(parsed)
        }
    }
}

extension ServerCommandLine {
    /// The maintenance commands by their words.
    static let maintenance: [[String]: MaintenanceCommand] = [
        ["admin", "add"]: .recorded("admin add", OfflineAdmin.addAdmin),
        ["admin", "remove"]: .recorded("admin remove", OfflineAdmin.removeAdmin),
        ["admin", "reset-password"]: .recorded("admin reset-password", OfflineAdmin.resetPassword),
        ["admin", "audit"]: .readsTheLog(audit),
        ["admin", "import-roster"]: .recorded("admin import-roster", importRoster),
        ["admin", "delete-user"]: .recorded("admin delete-user", deleteUser),
        ["admin", "roster"]: .recorded("admin roster", roster),
        ["admin", "roster", "remove"]: .recorded("admin roster remove", removeFromRoster),
        ["admin", "purge"]: .recorded("admin purge", purge),
        ["admin", "create-class"]: .recorded("admin create-class", createClass),
        ["admin", "classes"]: .recorded("admin classes", classes),
        ["admin", "set-role"]: .recorded("admin set-role", setRole),
        ["export"]: .recorded("export", export),
        ["end-term"]: .recorded("end-term", endTerm),
        ["backup"]: .recorded("backup", backup),
        ["restore"]: .recorded("restore", restore),
        ["compact"]: .recorded("compact", compact),
        ["migrate"]: .recorded("migrate", migrate),
        ["reset-feeds"]: .recorded("reset-feeds", OfflineAdmin.resetFeeds),
    ]
}
