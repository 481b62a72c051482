#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import Foundation
import Wire

/// `export`, `end-term` and `admin purge`: the class's snaps as a whole, offline (they work while
/// the server runs, too).
extension ServerCommandLine {
    /// `export --to DIR`: every feed's snaps as files, from --data's database or --database's.
    static func export(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        guard let directory = parsed.string("--to") else { throw parsed.usageError("--to names the new folder for the export") }
        action.target = "to \(directory)"
        let config = action.store
        let source = try Backup.source(for: config)
        let showsProgress = isatty(2) == 1
        let summary = try ExportCommand.run(from: source, to: directory, now: WallClock.system.now()) { done, total in
            if showsProgress { FileHandle.standardError.write(Data("\rExporting \(done)/\(total) snaps\u{1B}[K".utf8)) }
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        action.target = "\(summary.snaps) snap\(summary.snaps == 1 ? "" : "s") to \(directory)"
        print("Exported \(summary.snaps) snap\(summary.snaps == 1 ? "" : "s") in \(summary.feeds) feed\(summary.feeds == 1 ? "" : "s") "
              + "from \(config.databaseDescription) to \(directory) (\(summary.pictures) picture\(summary.pictures == 1 ? "" : "s"), "
              + "\(summary.pictureBytes) bytes); open \(directory)/index.html in a browser.")
        return 0
    }

    /// `end-term --archive FILE [--keep-accounts]`: a backup, then a clean class for the next term.
    static func endTerm(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        guard let archive = parsed.string("--archive") else {
            throw parsed.usageError("--archive names the backup written before anything is removed")
        }
        let keepAccounts = parsed.flag("--keep-accounts")
        action.target = "archive \(archive)\(keepAccounts ? ", accounts kept" : "")"
        let config = action.store
        let what = keepAccounts ? "every snap, view and session (accounts stay)"
                                : "every snap, view and session, and every account but the admins'"
        try Confirmation.ask("End the term of \(config.databaseDescription): archive it to \(archive), then remove \(what)?", parsed)
        let written = try Backup.write(from: Backup.source(for: config), to: archive)
        print("Archived \(config.databaseDescription) to \(written.path) (mode 0600, \(written.bytes) bytes).")
        let cleared = try OfflineAdmin.write(action, create: false) { store in try store.endTerm(keepAccounts: keepAccounts) }
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        print("Removed \(plural(cleared.snaps, "snap")), \(plural(cleared.views, "view")), \(plural(cleared.sessions, "session"))"
              + (keepAccounts ? "; accounts kept." : " and \(plural(cleared.accounts, "account")); the admins stay."))
        print("The next term can start: feeds and admins are as they were; restore the archive with 'restore' to look back.")
        return 0
    }

    /// `admin purge --older-than DURATION`: counts, asks, deletes.
    static func purge(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        guard let span = try parsed.timeSpan("--older-than") else {
            throw parsed.usageError("say which snaps go with --older-than DURATION, e.g. 30d")
        }
        action.target = "snaps posted more than \(span) ago"
        guard span.milliseconds > 0 else { throw parsed.valueError("--older-than", "--older-than must be a positive duration such as 30d") }
        let config = action.store
        let cutoff = WallClock.system.now() - span.milliseconds
        let doomed = try Backup.source(for: config).countSnaps(postedBefore: cutoff)
        guard doomed > 0 else {
            print("No snap was posted more than \(span) ago; nothing to purge.")
            return 0
        }
        try Confirmation.ask("Delete the \(doomed) snap\(doomed == 1 ? "" : "s") posted more than \(span) ago, with their pictures and views?", parsed)
        let count = try OfflineAdmin.write(action, create: false) { store in try store.deleteSnaps(postedBefore: cutoff) }
        print("Purged \(count) snap\(count == 1 ? "" : "s") posted more than \(span) ago.")
        return 0
    }
}
