import CommandLineParsing
import Foundation
import Posix
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// `export`, `end-term` and `admin purge`: the class's snaps as a whole, offline (they work while
/// the server runs, too).
extension ServerCommandLine {
    /// `export --to DIR`: every feed's snaps as files, from --data's database or --database's.
    static func export(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        guard let directory = parsed.string("--to") else { throw parsed.usageError("--to names the new folder for the export") }
        action.target = "to \(directory)"
        let config = action.store
        let source = try Backup.source(for: config)
        let showsProgress = TerminalDevice.isTerminal(2)
        let summary = try ExportCommand.run(
            from: source, classID: try source.offlineClass(parsed).id, to: directory, now: WallClock.system.now(),
            includePending: parsed.flag("--include-pending")
        ) { done, total in
            if showsProgress { FileHandle.standardError.write(Data("\rExporting \(done)/\(total) snaps\u{1B}[K".utf8)) }
        }
        if showsProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        action.target = "\(summary.snaps) snap\(summary.snaps == 1 ? "" : "s") to \(directory)"
        print(
            "Exported \(summary.snaps) snap\(summary.snaps == 1 ? "" : "s") in \(summary.feeds) feed\(summary.feeds == 1 ? "" : "s") "
                + "from \(config.databaseDescription) to \(directory) (\(summary.pictures) picture\(summary.pictures == 1 ? "" : "s"), "
                + "\(summary.pictureBytes) bytes); open \(directory)/index.html in a browser.")
        return 0
    }

    /// `end-term --archive FILE [--keep-accounts] [--keep-roster]`: a backup, then a clean class for the next term.
    static func endTerm(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        guard let archive = parsed.string("--archive") else {
            throw parsed.usageError("--archive names the backup written before anything is removed")
        }
        let keepAccounts = parsed.flag("--keep-accounts")
        let keepRoster = parsed.flag("--keep-roster")
        let kept = [keepAccounts ? "accounts kept" : nil, keepRoster ? "roster kept" : nil].compactMap { $0 }
        action.target = "archive \(archive)" + kept.map { ", \($0)" }.joined()
        // It ends the whole server's term: with several classes that would end every one of them.
        if let classes = try? Backup.source(for: action.store).allClasses(), classes.count > 1 {
            throw parsed.usageError(
                "\(several(classes)) and end-term would end "
                    + "every class's term at once; until classes end one by one, export each (export --class HANDLE) and purge it "
                    + "(admin purge --class HANDLE)")
        }
        let config = action.store
        let what =
            (keepAccounts
                ? "every snap, view and session (accounts stay)"
                : "every snap, view and session, and every account but the admins'")
            + (keepRoster ? "; the roster stays" : ", and the roster")
        try Confirmation.ask("End the term of \(config.databaseDescription): archive it to \(archive), then remove \(what)?", parsed)
        let written = try Backup.write(from: Backup.source(for: config), to: archive)
        let cleared = try clearTerm(action, keepAccounts: keepAccounts, keepRoster: keepRoster, archive: written.path)
        print("Archived \(config.databaseDescription) to \(written.path) (mode 0600, \(written.bytes) bytes).")
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var removed = [plural(cleared.snaps, "snap"), plural(cleared.views, "view"), plural(cleared.sessions, "session")]
        if !keepAccounts { removed.append(plural(cleared.accounts, "account")) }
        if !keepRoster { removed.append("the roster (\(plural(cleared.rosterEntries, "name")))") }
        let last = removed.removeLast()
        print(
            "Removed \(removed.joined(separator: ", ")) and \(last)"
                + (kept.isEmpty ? "; the admins stay." : "; \(kept.joined(separator: ", ")); the admins stay."))
        print(
            keepRoster
                ? "The next term can start: feeds, admins and the roster are as they were; restore the archive with 'restore' to look back."
                : "The next term can start: feeds and admins are as they were; import the new roster with 'admin import-roster'; "
                    + "restore the archive with 'restore' to look back.")
        return 0
    }

    /// The end of the term once its archive is written. When it fails nothing was removed (one
    /// transaction), and the archive goes too: the disk is as it was, and the same command can run again.
    private static func clearTerm(_ action: OfflineAction, keepAccounts: Bool, keepRoster: Bool, archive: String) throws -> TermCleared {
        do {
            return try OfflineAdmin.write(action, create: false) { store in
                try store.endTerm(keepAccounts: keepAccounts, keepRoster: keepRoster)
            }
        } catch {
            _ = try? FileSystem.remove(archive)
            throw error
        }
    }

    /// `admin purge --older-than DURATION`: counts, asks, deletes.
    static func purge(_ parsed: ParsedCommand, _ action: OfflineAction) throws -> Int32 {
        guard let span = try parsed.positiveTimeSpan("--older-than") else {
            throw parsed.usageError("say which snaps go with --older-than DURATION, e.g. 30d")
        }
        action.target = "snaps posted more than \(span) ago"
        let config = action.store
        let cutoff = WallClock.system.now() - span.milliseconds
        let source = try Backup.source(for: config)
        let classID = try source.offlineClass(parsed).id
        let doomed = try source.countSnaps(postedBefore: cutoff, classID: classID)
        guard doomed > 0 else {
            print("No snap was posted more than \(span) ago; nothing to purge.")
            return 0
        }
        try Confirmation.ask(
            "Delete the \(doomed) snap\(doomed == 1 ? "" : "s") posted more than \(span) ago, with their pictures and views?", parsed)
        let count = try OfflineAdmin.write(action, create: false) { store in try store.deleteSnaps(postedBefore: cutoff, classID: classID) }
        print("Purged \(count) snap\(count == 1 ? "" : "s") posted more than \(span) ago.")
        return 0
    }
}
