import ClassExport
import CommandLineParsing
import Foundation
import Wire

/// `admin import-roster`, `admin roster` and `admin delete-user`: the class's accounts, offline (they work while
/// the server runs, too).
extension ServerCommandLine {
    /// `admin import-roster FILE --passwords OUT`: the roster as accounts.
    static func importRoster(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let csv = parsed.positional(0) ?? ""
        action.target = csv
        guard let passwords = parsed.string("--passwords") else {
            throw parsed.usageError("--passwords names the new file for the one-time passwords (mode 0600)")
        }
        let config = action.store
        let outcome = try RosterImport.run(
            csvPath: csv, passwordsPath: passwords, dataDirectory: config.dataDirectory, database: config.database, action
        ) { store in try store.offlineClass(parsed) }
        for refusal in outcome.refused { warn("\(csv): \(refusal)") }
        let created =
            outcome.created.isEmpty
            ? "no account created (so no password file written)"
            : "\(outcome.created.count) account\(outcome.created.count == 1 ? "" : "s") created with one-time passwords in "
                + "\(passwords) (mode 0600; hand each student theirs)"
        print(
            "Imported \(csv): \(created), \(outcome.existing.count) already had one"
                + (outcome.refused.isEmpty
                    ? "." : "; \(outcome.refused.count) row\(outcome.refused.count == 1 ? "" : "s") refused (above)."))
        return outcome.refused.isEmpty ? 0 : 1
    }

    /// `admin delete-user USER`: the account and everything theirs, after asking.
    static func deleteUser(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        action.target = "user \(name)"
        let config = action.store
        guard let user = try Backup.source(for: config).user(named: name) else { throw StoreError(.notFound, "no user named \(name)") }
        guard !user.isAdmin else {
            throw parsed.usageError("\(user.name) is an admin; take the right away first (snapshare-server admin remove \(user.name))")
        }
        try Confirmation.ask("Delete the account \(user.name) with all their snaps, views, pins, albums and movies?", parsed)
        let gone = try OfflineAdmin.write(action, create: false) { store in try store.deleteUser(userID: user.id) }
        print(
            "Deleted \(user.name) with \(gone.snaps) snaps, \(gone.pins) pins and \(gone.movies) movies"
                + (gone.rosterName.map { "; \($0) is off the roster, so nobody can register it" } ?? "")
                + "; a running server ends their sessions within a second.")
        return 0
    }

    /// `admin roster [--json]`: every roster name, who claimed it and where it stands.
    static func roster(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        action.target = "the roster"
        let source = try Backup.source(for: action.store)
        let members = try source.rosterMembers(classID: source.offlineClass(parsed).id).map(RosterMember.init)
        if parsed.flag("--json") {
            print(RosterReport.json(members))
        } else {
            if !members.isEmpty { print(PlainTable.render(header: RosterReport.header, rows: RosterReport.rows(members))) }
            print(RosterReport.summary(members))
        }
        return 0
    }

    /// `admin roster remove NAME`: takes a name off the roster; an account that claimed it stays.
    static func removeFromRoster(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        let name = parsed.positional(0) ?? ""
        action.target = "roster name \(name)"
        let removed = try OfflineAdmin.write(action, create: false) { store in
            try store.removeRosterEntry(named: name, classID: store.offlineClass(parsed).id)
        }
        print(
            "Took \(removed.entry.name) off the roster" + (removed.account.map { "; \($0) keeps their account" } ?? "")
                + "; the name no longer registers.")
        return 0
    }
}
