import Crypto
import Foundation
import Posix
import Wire

#if canImport(Glibc)
    import Glibc
#endif

/// `snapshare-server admin import-roster FILE.csv --passwords OUT.csv`: the class list as
/// accounts. The CSV has a header row naming `username` and, optionally, `display_name` and
/// `role` (`student`, the default, or `admin`). Every good row goes on the roster; a name with
/// no account yet gets one with a one-time password, written to OUT.csv (mode 0600, never over
/// a file) for the instructor to hand out, which its owner must change at first login. A name
/// whose account exists (or whose roster entry an account claimed and was renamed from) keeps
/// that account. A bad row is reported with its line and skipped; the good ones are imported all
/// the same.
enum RosterImport {
    /// One row that was not imported, and why.
    struct Refusal: Sendable, Equatable, CustomStringConvertible {
        var line: Int
        var reason: String
        package var description: String { "line \(line): \(reason)" }
    }

    /// What an import did.
    struct Outcome: Sendable {
        var created: [(name: String, displayName: String, password: String)]
        /// Names on the roster that already had an account (kept as it is).
        var existing: [String]
        var refused: [Refusal]
    }

    /// A good row: the entry and the line it came from.
    struct Row: Sendable {
        var line: Int
        var entry: RosterEntry
    }

    /// The good rows of `csv`, and the refusals.
    static func rows(_ csv: [UInt8], now: Int64) throws -> (entries: [Row], refused: [Refusal]) {
        let records: [CSVReader.Record]
        do { records = try CSVReader().records(csv) } catch { throw ConfigurationError("the roster is not CSV: \(error)") }
        guard let header = records.first else { throw ConfigurationError("the roster is empty; it needs a header row naming username") }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let nameColumn = columns.firstIndex(of: "username") else {
            throw ConfigurationError(
                "line \(header.line): the header row names no username column (it has: \(columns.joined(separator: ", ")))")
        }
        let displayColumn = columns.firstIndex(of: "display_name")
        let roleColumn = columns.firstIndex(of: "role")
        var entries: [Row] = []
        var refused: [Refusal] = []
        var seen: Set<String> = []
        for record in records.dropFirst() {
            func field(_ index: Int?) -> String {
                guard let index, index < record.fields.count else { return "" }
                return record.fields[index].trimmingCharacters(in: .whitespaces)
            }
            let name = field(nameColumn)
            if let problem = InputRules.validateUsername(name) {
                refused.append(Refusal(line: record.line, reason: "\(name.isEmpty ? "no username" : "'\(name)'"): \(problem)"))
                continue
            }
            guard seen.insert(name.lowercased()).inserted else {
                refused.append(Refusal(line: record.line, reason: "\(name) is on the roster twice"))
                continue
            }
            let role = field(roleColumn).lowercased()
            guard ["", "student", "admin"].contains(role) else {
                refused.append(Refusal(line: record.line, reason: "\(name): role '\(role)' is neither student nor admin"))
                continue
            }
            var display = field(displayColumn)
            if display.isEmpty { display = name }
            guard case .success(let shown) = InputRules.normalizedText(display, maxCharacters: 80, empty: "", plural: "display names")
            else {
                refused.append(
                    Refusal(line: record.line, reason: "\(name): the display name is over 80 characters or has control characters"))
                continue
            }
            entries.append(
                Row(line: record.line, entry: RosterEntry(name: name, displayName: shown, isAdmin: role == "admin", addedAt: now)))
        }
        return (entries, refused)
    }

    /// Imports `csvPath` into the roster of the class `chosen` picks in the data folder's (or
    /// `database`'s) store, writing the new accounts' one-time passwords to `passwordsPath`;
    /// `action` is its audit entry. The accounts are the class's members: its students, and its
    /// owners for the rows whose role is admin (who are site admins too, as before classes).
    static func run(
        csvPath: String, passwordsPath: String, dataDirectory: String, database: String?, _ action: OfflineAction,
        in chosen: @escaping @Sendable (any SnapshareStore) throws -> ClassRecord
    ) throws -> Outcome {
        let data: [UInt8]
        do { data = try WholeFile.read(csvPath, maximumBytes: 16 << 20) } catch {
            throw ConfigurationError("cannot read the roster \(csvPath): \(error.reason)")
        }
        // The password file's place is taken before any account is made: a new name in a folder
        // that exists, under a hidden name until the accounts are committed.
        let passwordFile = try StagedOutput.file(passwordsPath, mode: 0o600)
        let now = WallClock.system.now()
        let (parsedRows, badRows) = try rows(data, now: now)
        // Who needs an account, and their one-time passwords hashed before the write: a name with
        // no account whose entry nobody has claimed. (A new class has no database yet.) A name whose
        // account holds another roster name already is refused here, with the bad rows.
        let store = try? Backup.source(for: configuration(dataDirectory, database))
        let classID = try store.map { try chosen($0).id }
        var refused = badRows
        let rows = try parsedRows.filter { row in
            guard let store, let classID, let reason = try store.rosterRefusal(row.entry.name, classID: classID) else { return true }
            refused.append(Refusal(line: row.line, reason: reason))
            return false
        }
        refused.sort { $0.line < $1.line }
        let newcomers = try rows.filter { row in
            guard let store, let classID else { return true }
            return try store.needsAccount(row.entry.name, classID: classID)
        }
        let hasher = PasswordHasher()
        let passwords = newcomers.map { _ in oneTimePassword() }
        let hashes = try passwords.map { try hasher.hash(password: $0) }
        action.target = "\(rows.count) names from \(csvPath)"
        if !refused.isEmpty { action.result = "partial: \(rows.count) added, \(refused.count) refused" }
        let made = try OfflineAdmin.write(action) { store -> [String] in
            let classID = try chosen(store).id
            for row in rows { try store.putRosterEntry(row.entry, classID: classID) }
            var made: [String] = []
            for (row, hash) in zip(newcomers, hashes) {
                // The new account claims its roster entry (see `AccountStore.createUser`).
                guard try store.user(named: row.entry.name) == nil else { continue }
                let user = try store.createUser(name: row.entry.name, passwordHash: hash, isAdmin: row.entry.isAdmin, at: now)
                try store.setMustChangePassword(userID: user.id, true)
                made.append(row.entry.name)
            }
            // Every name's account is in the class: the new ones and those that had one already.
            for row in rows {
                guard let user = try store.user(named: row.entry.name), try store.role(userID: user.id, classID: classID) == nil else {
                    continue
                }
                try store.setMember(userID: user.id, classID: classID, role: row.entry.isAdmin ? .owner : .student, at: now)
            }
            return made
        }
        let created = zip(newcomers, passwords).filter { made.contains($0.0.entry.name) }
            .map { ($0.0.entry.name, $0.0.entry.displayName, $0.1) }
        // No account made, no password file (a header alone would only mislead).
        if created.isEmpty { passwordFile.discard() } else { try writePasswords(created, to: passwordFile) }
        let newNames = Set(newcomers.map { $0.entry.name.lowercased() })
        return Outcome(created: created, existing: rows.map(\.entry.name).filter { !newNames.contains($0.lowercased()) }, refused: refused)
    }

    private static func configuration(_ dataDirectory: String, _ database: String?) -> ServerConfiguration {
        var config = ServerConfiguration()
        config.dataDirectory = dataDirectory
        config.database = database
        return config
    }

    /// Twelve characters in three groups (`ReadableCode`): about 60 bits, read out or copied easily.
    static func oneTimePassword() -> String { ReadableCode.make(groups: 3) }

    /// Writes the new accounts' one-time passwords into the staged file and names it. The accounts
    /// exist by now, so a failure here says how to give them passwords another way.
    private static func writePasswords(_ rows: [(String, String, String)], to file: StagedOutput) throws {
        func quoted(_ text: String) -> String {
            text.contains(where: { ",\"\n".contains($0) }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text
        }
        let text =
            (["username,display_name,one_time_password"] + rows.map { [$0.0, $0.1, $0.2].map(quoted).joined(separator: ",") })
            .joined(separator: "\n") + "\n"
        func failure(_ what: String) -> ConfigurationError {
            ConfigurationError(
                "\(what); the \(rows.count) new accounts exist without a password anyone knows: "
                    + "set each with snapshare-server admin reset-password USER --password-stdin")
        }
        do {
            try file.write(Array(text.utf8))
            try file.commit()
        } catch {
            throw failure(error.description)
        }
    }
}

extension SQLStore {
    /// Why a roster name cannot be put on the roster as it stands, or nil: a new entry of a name
    /// whose account holds another roster name already (an account holds one).
    func rosterRefusal(_ name: String, classID: Int64) throws -> String? {
        guard try rosterEntry(named: name, classID: classID) == nil, let account = try user(named: name) else { return nil }
        guard let held = try rosterMembers(classID: classID).first(where: { $0.entry.claimedBy == account.id }) else { return nil }
        return "\(account.name) has an account that holds the roster name \(held.entry.name) already"
    }

    /// Whether a roster name needs a new account: nobody has it as a name, and no account claimed
    /// its roster entry (and was renamed away from it).
    func needsAccount(_ name: String, classID: Int64) throws -> Bool {
        try user(named: name) == nil && rosterEntry(named: name, classID: classID)?.claimedBy == nil
    }
}
