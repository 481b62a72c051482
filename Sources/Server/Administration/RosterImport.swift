#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation
import Wire

/// `snapshare-server admin import-roster FILE.csv --passwords OUT.csv`: the class list as
/// accounts. The CSV has a header row naming `username` and, optionally, `display_name` and
/// `role` (`student`, the default, or `admin`). Every good row goes on the roster; a name with
/// no account yet gets one with a one-time password, written to OUT.csv (mode 0600, never over
/// a file) for the instructor to hand out, which its owner must change at first login. A bad
/// row is reported with its line and skipped; the good ones are imported all the same.
public enum RosterImport {
    /// One row that was not imported, and why.
    public struct Refusal: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// What an import did.
    public struct Outcome: Sendable {
        public var created: [(name: String, displayName: String, password: String)]
        /// Names on the roster that already had an account (kept as it is).
        public var existing: [String]
        public var refused: [Refusal]
    }

    /// The good rows of `csv`, and the refusals.
    static func rows(_ csv: [UInt8], now: Int64) throws -> (entries: [RosterEntry], refused: [Refusal]) {
        let records: [CSVReader.Record]
        do { records = try CSVReader().records(csv) } catch { throw ConfigurationError("the roster is not CSV: \(error)") }
        guard let header = records.first else { throw ConfigurationError("the roster is empty; it needs a header row naming username") }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let nameColumn = columns.firstIndex(of: "username") else {
            throw ConfigurationError("line \(header.line): the header row names no username column (it has: \(columns.joined(separator: ", ")))")
        }
        let displayColumn = columns.firstIndex(of: "display_name"), roleColumn = columns.firstIndex(of: "role")
        var entries: [RosterEntry] = [], refused: [Refusal] = [], seen: Set<String> = []
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
            guard case .success(let shown) = InputRules.normalizedText(display, maxCharacters: 80, empty: "", plural: "display names") else {
                refused.append(Refusal(line: record.line, reason: "\(name): the display name is over 80 characters or has control characters"))
                continue
            }
            entries.append(RosterEntry(name: name, displayName: shown, isAdmin: role == "admin", addedAt: now))
        }
        return (entries, refused)
    }

    /// Imports `csvPath` into the data folder's (or `database`'s) store, writing the new
    /// accounts' one-time passwords to `passwordsPath`; `action` is its audit entry.
    static func run(csvPath: String, passwordsPath: String, dataDirectory: String, database: String?, _ action: OfflineAction) throws -> Outcome {
        guard let data = FileManager.default.contents(atPath: csvPath) else { throw ConfigurationError("cannot read the roster \(csvPath)") }
        guard !FileManager.default.fileExists(atPath: passwordsPath) else {
            throw ConfigurationError("\(passwordsPath) exists already; name a new file for the one-time passwords")
        }
        let now = WallClock.system.now()
        let (entries, refused) = try rows([UInt8](data), now: now)
        // Who needs an account, and their one-time passwords hashed before the write.
        // (A new class has no database yet: nobody has an account.)
        let store = try? Backup.source(for: configuration(dataDirectory, database))
        let existing = try Set(store?.existingNames(entries.map(\.name)) ?? [])
        let newcomers = entries.filter { !existing.contains($0.name.lowercased()) }
        let hasher = PasswordHasher()
        let passwords = newcomers.map { _ in oneTimePassword() }
        let hashes = try passwords.map { try hasher.hash(password: $0) }
        action.target = "\(entries.count) names from \(csvPath)"
        if !refused.isEmpty { action.result = "partial: \(entries.count) added, \(refused.count) refused" }
        let created = try OfflineAdmin.write(action) { store -> [String] in
            for entry in entries { try store.putRosterEntry(entry) }
            var made: [String] = []
            for (entry, hash) in zip(newcomers, hashes) {
                guard try store.user(named: entry.name) == nil else { continue }
                let user = try store.createUser(name: entry.name, passwordHash: hash, isAdmin: entry.isAdmin, at: now)
                try store.setMustChangePassword(userID: user.id, true)
                made.append(entry.name)
            }
            return made
        }
        let rows = zip(newcomers, passwords).filter { created.contains($0.0.name) }.map { ($0.0.name, $0.0.displayName, $0.1) }
        try writePasswords(rows, to: passwordsPath)
        return Outcome(created: rows, existing: entries.map(\.name).filter { existing.contains($0.lowercased()) }, refused: refused)
    }

    private static func configuration(_ dataDirectory: String, _ database: String?) -> ServerConfiguration {
        var config = ServerConfiguration()
        config.dataDirectory = dataDirectory
        config.database = database
        return config
    }

    /// Twelve characters from an alphabet without look-alikes (no 0/O, 1/l/I), in three groups:
    /// about 60 bits, read out or copied easily.
    static func oneTimePassword() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        let random = SecureRandom.bytes(12)
        let letters = random.map { alphabet[Int($0) % alphabet.count] }
        return [letters[0..<4], letters[4..<8], letters[8..<12]].map { String($0) }.joined(separator: "-")
    }

    private static func writePasswords(_ rows: [(String, String, String)], to path: String) throws {
        func quoted(_ text: String) -> String { text.contains(where: { ",\"\n".contains($0) }) ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : text }
        let text = (["username,display_name,one_time_password"] + rows.map { [$0.0, $0.1, $0.2].map(quoted).joined(separator: ",") })
            .joined(separator: "\n") + "\n"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ConfigurationError("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else {
            throw ConfigurationError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}

extension SQLStore {
    /// Which of `names` have an account, lower-cased.
    func existingNames(_ names: [String]) throws -> [String] {
        try names.compactMap { try user(named: $0)?.name.lowercased() }
    }
}
